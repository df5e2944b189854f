import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { descendantRunning, startServer } from '../../bench/processes.mjs';

const find = descendantRunning as (pid: number, needle: string) => number;
const start = startServer as (options: {
  command: string[];
  env: Record<string, string>;
  logFile: string;
  startTimeoutMs?: number;
}) => Promise<unknown>;

describe('the process a launcher runs (BENCH_SERVER=npm-start measures node, not npm)', () => {
  it('is found below the launcher by its command line, through a shell in between', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-descendant-'));
    const script = join(dir, 'server.mjs');
    writeFileSync(script, 'setInterval(() => {}, 1000);\n');
    // A shell that stays the parent (a compound command) and names the script, as npm's script shell does.
    const launcher = spawn('sh', ['-c', `${process.execPath} ${script}; true`], { stdio: 'ignore' });
    try {
      let found: number | undefined;
      // The shell forks the node process at once; wait until it is there.
      for (let attempt = 0; attempt < 200 && found === undefined; attempt++) {
        try {
          found = find(launcher.pid!, 'server.mjs');
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
      expect(found).toBeDefined();
      expect(found).not.toBe(launcher.pid);
      process.kill(found!, 'SIGTERM');
      await once(launcher, 'close');
    } finally {
      launcher.kill('SIGKILL');
    }
  });

  it('is the launcher itself when it runs the script, and an error when nothing does', () => {
    expect(find(process.pid, process.argv[1]!)).toBe(process.pid);
    expect(() => find(process.pid, 'no-such-program-anywhere')).toThrow(`no process below ${process.pid} runs no-such-program-anywhere`);
  });
});

describe('a server that never says it is listening', () => {
  it('fails the run within its start time, naming the server and its log, and is stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-silent-'));
    const pidFile = join(dir, 'pid');
    const logFile = join(dir, 'server.log');
    // Writes its pid and a log line that is not the listening line, and stays. A shell, whose first
    // line runs within milliseconds even on a loaded machine, so that it has run before the deadline.
    const script = `echo $$ > ${JSON.stringify(pidFile)}; echo '{"msg":"starting"}'; exec sleep 600`;
    await expect(start({ command: ['sh', '-c', script], env: {}, logFile, startTimeoutMs: 3000 })).rejects.toThrow(
      `printed no "listening" line to ${logFile} within 3 s; stopped`,
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
