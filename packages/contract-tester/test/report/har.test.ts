import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../src/http/http-client.js';
import { harEntry, harLog } from '../../src/report/har.js';

const record: ExchangeRecord = {
  startedAt: new Date('2026-11-21T10:00:00Z'),
  request: {
    method: 'POST',
    target: '/v1/pets?a=1',
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    credentials: { kind: 'none' },
    body: Buffer.from('{"a":1}'),
  },
  target: '/v1/pets?a=1',
  headers: [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'Authorization', value: 'Bearer $CONTRACT_TEST_API_KEY' },
  ],
  response: {
    status: 201,
    headers: { 'content-type': 'image/png', location: '/v1/pets/1' },
    bytes: Buffer.from([0x89, 0x50]),
    text: '',
    body: undefined,
    elapsedMs: 12.5,
  },
};

describe('the HAR report', () => {
  it('records each exchange as sent (secrets as their variables) and as answered (bytes that are not text in base64)', () => {
    const entry = harEntry(record, 'http://127.0.0.1:8080');
    expect(entry).toMatchObject({
      startedDateTime: '2026-11-21T10:00:00.000Z',
      time: 12.5,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8080/v1/pets?a=1',
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          { name: 'Authorization', value: 'Bearer $CONTRACT_TEST_API_KEY' },
        ],
        queryString: [{ name: 'a', value: '1' }],
        postData: { mimeType: 'application/json', text: '{"a":1}' },
      },
      response: { status: 201, redirectURL: '/v1/pets/1', content: { size: 2, mimeType: 'image/png', text: 'iVA=', encoding: 'base64' } },
    });
  });

  it('records a request that got no answer, and makes a HAR 1.2 log of them all', () => {
    const lost = harEntry({ ...record, response: undefined, error: 'no response: socket hang up' }, 'http://x');
    expect(lost).toMatchObject({
      response: { status: 0, statusText: 'no response: socket hang up' },
      comment: 'no response: socket hang up',
    });
    const log = JSON.parse(harLog([record, record], 'http://x', '1.2.3')) as {
      log: { version: string; creator: unknown; entries: unknown[] };
    };
    expect(log.log).toMatchObject({ version: '1.2', creator: { name: 'openapi-contract-tester', version: '1.2.3' } });
    expect(log.log.entries).toHaveLength(2);
  });
});
