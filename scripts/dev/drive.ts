import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../free-port.js';

/** npm run dev running in a project (a copy), as its test and its measure drive it. */
export interface DrivenDev {
  /** The API's base URL, e.g. http://127.0.0.1:41234/v1. */
  baseUrl: string;
  /** Authorization header value with the key the first start printed. */
  authorization: string;
  /** Every line it printed so far (stdout and stderr). */
  lines: string[];
  /** The first line matching, among those printed from line number `from` on (now or later). */
  waitForLine(pattern: RegExp, from?: number): Promise<string>;
  /** SIGTERM; resolves once it (and so everything it started) has exited. */
  stop(): Promise<number | null>;
}

/** Starts npm run dev (scripts/dev.ts) in `root` on a free port and a fresh SQLite store; resolves once it serves. */
export async function startDev(root: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<DrivenDev> {
  const port = await freePort();
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/dev.ts', ...args], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: '0',
      DATABASE_URL: `file:${join(root, 'data', 'dev.db')}`,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiting = new Set<{ pattern: RegExp; from: number; resolve: (line: string) => void }>();
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let ended = false;
  void exited.then(() => (ended = true));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      for (const waiter of waiting) {
        if (waiter.pattern.test(line)) {
          waiting.delete(waiter);
          waiter.resolve(line);
        }
      }
    });
  }
  const waitForLine = (pattern: RegExp, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.slice(from).find((line) => pattern.test(line));
      if (seen !== undefined) return resolve(seen);
      if (ended) return reject(new Error(`npm run dev has exited without printing ${pattern}:\n${lines.join('\n')}`));
      waiting.add({ pattern, from, resolve });
      void exited.then(() => reject(new Error(`npm run dev exited without printing ${pattern}:\n${lines.join('\n')}`)));
    });
  const serving = await waitForLine(/^\[dev\] serving /);
  const key = /^\s+(psk_\S+)$/.exec((await waitForLine(/^\s+psk_\S+$/)) ?? '')![1]!;
  return {
    baseUrl: /^\[dev\] serving (\S+):/.exec(serving)![1]!,
    authorization: `Bearer ${key}`,
    lines,
    waitForLine,
    stop: async () => {
      if (!ended) child.kill('SIGTERM');
      return exited;
    },
  };
}
