import { describe, expect, it } from 'vitest';
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
});
