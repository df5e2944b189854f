import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

const PRISM = 'node_modules/@stoplight/prism-cli/dist/index.js';

export interface RunningPrism {
  /** Where Prism listens, e.g. http://127.0.0.1:41234. Paths are the spec's, without the base path. */
  url: string;
  /** Every line Prism printed so far, colours removed. */
  output: string[];
  /** Resolves with the first line (printed or to come) that matches. */
  waitForLine(pattern: RegExp): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts Prism (`mock` or `proxy`, on openapi.yaml) on a free port and resolves once it says where it
 * listens: no polling, no sleeps.
 */
export function startPrism(args: string[]): Promise<RunningPrism> {
  const child = spawn(process.execPath, [PRISM, ...args, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  const record = (raw: string) => {
    const line = stripVTControlCharacters(raw);
    output.push(line);
    for (const waiter of waiting) {
      if (waiter.pattern.test(line)) {
        waiting.delete(waiter);
        waiter.resolve(line);
      }
    }
    return line;
  };
  const waitForLine = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const seen = output.find((line) => pattern.test(line));
      if (seen === undefined) waiting.add({ pattern, resolve });
      else resolve(seen);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stderr }).on('line', record);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`prism exited with ${code} before listening:\n${output.join('\n')}`)));
    createInterface({ input: child.stdout }).on('line', (raw) => {
      const line = record(raw);
      const url = /Prism is listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) {
        resolve({
          url,
          output,
          waitForLine,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
  });
}
