import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
