import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../scripts/free-port.js';
import { fetchChecked } from './contract-fetch.js';

export function tempDatabaseUrl(): string {
  return `file:${join(mkdtempSync(join(tmpdir(), 'petstore-process-')), 'petstore.db')}`;
}

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built keys CLI (`npm run keys` runs the same file). */
export function runKeys(args: string[], env: Record<string, string>): CommandResult {
  const result = spawnSync(process.execPath, ['dist/cli/keys.js', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RunningServer {
  baseUrl: string;
  /** Everything the process printed to stdout so far, line by line; all of it once stop() resolved. */
  output: string[];
  /** SIGTERM, then its exit code once it has exited. */
  stop(): Promise<number | null>;
  /** Sends a signal without waiting. */
  signal(signal: NodeJS.Signals): void;
  /** Its exit code (null when a signal killed it), once it has exited. */
  exited: Promise<number | null>;
  /** Resolves with the first line printed (before or after the call) that matches. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Sends the process a signal (SIGKILL: no shutdown at all) and resolves with how it ended. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * The settings of a test whose one key makes more requests than the default quota (600 a minute),
 * and that is about something else than the limits. On PostgreSQL the count is kept in the
 * database, so it also outlives a restart or a crash.
 */
export const QUOTA_NEVER_REACHED = { RATE_LIMIT_PER_MINUTE: '100000' };

/** Where the server runs from: the built one here by default, or another project's, or from source (tsx). */
export interface ServerCommand {
  cwd?: string;
  /** Node's arguments: ['dist/main.js'] by default. */
  args?: string[];
}

/**
 * Starts the built server on a free port (PORT=0) and resolves once it logs "listening", which
 * carries the real address: no polling, no sleeps.
 */
export function startServer(env: Record<string, string>, { cwd, args = ['dist/main.js'] }: ServerCommand = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, args, {
    ...(cwd ? { cwd } : {}),
    // No drain period: a test that stops a server wants it gone; shutdown tests set their own. No
    // metrics listener (its port is fixed, and servers run side by side): tests of it ask for one.
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  const waitForLine = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const seen = output.find((line) => pattern.test(line));
      if (seen === undefined) waiting.add({ pattern, resolve });
      else resolve(seen);
    });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // 'close' follows the end of the output streams: once stop() resolves, `output` is complete.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      for (const waiter of waiting) {
        if (waiter.pattern.test(line)) {
          waiting.delete(waiter);
          waiter.resolve(line);
        }
      }
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url) {
        resolve({
          baseUrl: entry.url,
          output,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
          signal: (signal) => child.kill(signal),
          exited,
          waitForLine,
          kill: async (signal) => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
  });
}

export { freePort };

/**
 * startServer with its metrics listener on, on a free port; resolves with the server and the
 * metrics URL from its "listening" line (metricsUrl). The port is free when picked but could be taken
 * before the server binds it, so a start that fails on it is retried on another.
 */
export async function startServerWithMetrics(env: Record<string, string>): Promise<{ server: RunningServer; metricsUrl: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const server = await startServer({ ...env, METRICS_PORT: String(await freePort()) });
      const line = await server.waitForLine(/"msg":"listening"/);
      return { server, metricsUrl: (JSON.parse(line) as { metricsUrl: string }).metricsUrl };
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

/** fetch that checks every response against openapi.yaml, like the supertest helper does. */
export async function contractFetch(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const { response, body } = await fetchChecked(url, init);
  return { status: response.status, headers: response.headers, body };
}
