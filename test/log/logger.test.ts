import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOG_WRITE_BYTES, logDestination } from '../../src/log/logger.js';
import { capturingLogger } from '../support/log-capture.js';

describe('the logger', () => {
  it('writes JSON lines at the level asked for, with the service name', () => {
    const capture = capturingLogger('warn');
    capture.logger.info('not written');
    capture.logger.warn({ detail: 1 }, 'written');
    expect(capture.lines).toEqual([expect.objectContaining({ level: 40, service: 'petstore-api', detail: 1, msg: 'written' })]);
  });

  it('never writes what could hold a key, even when a log call passes it', () => {
    const capture = capturingLogger();
    capture.logger.info({ req: { headers: { authorization: 'Bearer psk_secret' } }, apiKey: 'psk_secret', key: 'psk_secret' }, 'request');
    expect(capture.text()).not.toContain('psk_secret');
    expect(capture.lines[0]).toMatchObject({ req: { headers: { authorization: '[redacted]' } }, apiKey: '[redacted]', key: '[redacted]' });
  });

  it('by default holds at most LOG_WRITE_BYTES for one write, and writes every line whole and in order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
    const destination = logDestination(path);
    // Text beyond ASCII too: lines arrive as text and are held as bytes.
    const lines = Array.from({ length: 200 }, (_, i) => `{"n":${i},"pad":"${'x−é'.repeat(i % 97)}"}\n`);
    // One turn of the event loop, as the responses of many connections close together.
    for (const line of lines) destination.write(line);
    expect((destination as unknown as { maxWrite: number }).maxWrite).toBe(LOG_WRITE_BYTES);
    const closed = once(destination, 'close');
    destination.end();
    await closed;
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('takes every line held in its next write, so lines do not pile up while a write is under way', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
    const destination = logDestination(path);
    await once(destination, 'ready');
    const writes: number[] = [];
    destination.on('write', (bytes: number) => writes.push(bytes));
    // A turn's worth of request lines many times over: the first starts a write, the rest are held.
    const lines = Array.from({ length: 2000 }, (_, i) => `{"n":${i},"msg":"request completed","pad":"${'x'.repeat(300)}"}\n`);
    for (const line of lines) destination.write(line);
    const closed = once(destination, 'close');
    destination.end();
    await closed;
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
    expect(writes).toHaveLength(2);
  });

  it('stops logging, not the process, when the reader of its stdout goes away', async () => {
    // Keeps writing lines to stdout after the reader has closed it, then says so on stderr.
    const child = withDestinationOnStdout(`let n = 0;
const timer = setInterval(() => {
  for (let i = 0; i < 100; i++) destination.write('{"n":' + n++ + '}\\n');
  if (n >= 20000) { clearInterval(timer); process.stderr.write('wrote ' + n); }
}, 1);`);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The reader takes the first lines, then goes away.
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('wrote 20000');
    expect(code).toBe(0);
  });

  it('writes the lines it still holds when the process exits', async () => {
    // Lines written in one turn, the first still being written and the rest held, then an exit.
    const child = withDestinationOnStdout(`for (let n = 0; n < 5000; n++) destination.write('{"n":' + n + '}\\n');
process.exit(0);`);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    const written = stdout.split('\n').filter(Boolean);
    expect(new Set(written)).toEqual(new Set(Array.from({ length: 5000 }, (_, n) => `{"n":${n}}`)));
    expect(written).toHaveLength(5000);
  });
});

/** A process that runs `body` with `destination`, the default log destination on its stdout; stdout and stderr piped here. */
function withDestinationOnStdout(body: string) {
  const script = join(mkdtempSync(join(tmpdir(), 'log-')), 'writer.ts');
  const logger = fileURLToPath(new URL('../../src/log/logger.ts', import.meta.url));
  writeFileSync(script, `import { logDestination } from ${JSON.stringify(logger)};\nconst destination = logDestination(1);\n${body}\n`);
  return spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}
