import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startServer, tempDatabaseUrl } from '../support/processes.js';

/** Runs the built server with this environment, expecting it to refuse to start. */
function refusedStart(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['dist/main.js'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', DATABASE_URL: tempDatabaseUrl(), ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('the built server with a bad configuration', () => {
  it.each([
    [{ PORT: '80a' }, 'PORT must be an integer from 0 to 65535, not "80a"'],
    [{ METRICS_PORT: '1e4' }, 'METRICS_PORT must be an integer from 0 to 65535, not "1e4"'],
    [{ PORT: '9100', METRICS_PORT: '9100' }, 'METRICS_PORT (9100) must differ from PORT'],
    [{ RATE_LIMIT_PER_MINUTE: '-5' }, 'RATE_LIMIT_PER_MINUTE must be an integer from 0 to 10000000, not "-5"'],
    [{ FAILED_AUTH_PER_MINUTE: 'many' }, 'FAILED_AUTH_PER_MINUTE must be an integer from 0 to 1000000, not "many"'],
    [{ TRUST_PROXY_HOPS: 'yes' }, 'TRUST_PROXY_HOPS must be an integer from 0 to 10, not "yes"'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT must be one of json, pretty, not "xml"'],
    [{ SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '5000' }, 'SHUTDOWN_DRAIN_MS (5000) must be less than SHUTDOWN_TIMEOUT_MS (5000)'],
    [{ DATABASE_URL: 'redis://cache' }, 'DATABASE_URL scheme "redis:" is not supported'],
  ])('exits non-zero, naming the variable and the accepted values on stderr: %j', (env, message) => {
    const { status, stderr, stdout } = refusedStart(env);
    expect(status).toBe(1);
    expect(stderr).toContain(message);
    // Nothing was served, and nothing else was said.
    expect(stdout).toBe('');
  });

  it('exits non-zero when METRICS_PORT is taken, naming it', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const { status, stderr } = refusedStart({ METRICS_PORT: String(port) });
      expect(status).toBe(1);
      expect(stderr).toContain(`METRICS_PORT ${port} on 127.0.0.1`);
      expect(stderr).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });

  it('exits non-zero when another instance of it has PORT, naming the error', async () => {
    const running = await startServer({ DATABASE_URL: tempDatabaseUrl(), METRICS_PORT: '0' });
    try {
      const port = new URL(running.baseUrl).port;
      const { status, stderr } = refusedStart({ PORT: port });
      expect(status).toBe(1);
      expect(stderr).toContain('EADDRINUSE');
      expect(stderr).toContain(`127.0.0.1:${port}`);
    } finally {
      await running.stop();
    }
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes human-readable lines instead of JSON', async () => {
    const child = spawn(process.execPath, ['dist/main.js'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '0',
        SHUTDOWN_DRAIN_MS: '0',
        LOG_FORMAT: 'pretty',
        DATABASE_URL: tempDatabaseUrl(),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const lines: string[] = [];
    await new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        if (line.includes('listening')) resolve();
      });
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const listening = lines.find((line) => line.includes('listening'))!;
    expect(listening.startsWith('{')).toBe(false);
    expect(listening).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: listening/);
    expect(listening).not.toContain('"msg"');
  });
});
