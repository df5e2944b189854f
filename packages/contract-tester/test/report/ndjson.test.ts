import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../src/http/http-client.js';
import { exchangeLine, failureLine, scenarioLine, summaryLine } from '../../src/report/ndjson.js';
import { failure, passed, run } from '../support/contract-test-results.js';

describe('the NDJSON report', () => {
  it('writes an exchange as one JSON line: the request as sent, secrets as variables, and the answer', () => {
    const record: ExchangeRecord = {
      startedAt: new Date('2026-11-21T10:00:00Z'),
      request: { method: 'GET', target: '/v1/pets', headers: [], credentials: { kind: 'none' } },
      target: '/v1/pets?key=$CONTRACT_TEST_API_KEY',
      headers: [],
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        bytes: Buffer.from('[]'),
        text: '[]',
        body: [],
        elapsedMs: 3.14159,
      },
    };
    expect(JSON.parse(exchangeLine(record))).toEqual({
      type: 'exchange',
      at: '2026-11-21T10:00:00.000Z',
      request: { method: 'GET', target: '/v1/pets?key=$CONTRACT_TEST_API_KEY', headers: [] },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: { text: '[]' }, elapsedMs: 3.1 },
    });
    expect(JSON.parse(exchangeLine({ ...record, response: undefined, error: 'no response' }))).toMatchObject({ error: 'no response' });
  });

  it('writes scenarios, failures (their steps briefly) and the summary, one a line', () => {
    expect(JSON.parse(scenarioLine(passed))).toMatchObject({ type: 'scenario', name: 'getPet: valid requests', status: 'passed' });
    expect(JSON.parse(failureLine(failure))).toMatchObject({
      type: 'failure',
      title: 'canonical_numbers · getPet · 200',
      path: '2:0:1',
      steps: [{ method: 'GET', target: '/v1/pets/%2B1', status: 200 }],
    });
    expect(JSON.parse(summaryLine(run))).toMatchObject({ type: 'summary', seed: 42, failures: 1, notExercised: ['listStoreOrders'] });
    for (const line of [scenarioLine(passed), failureLine(failure), summaryLine(run)]) expect(line).not.toContain('\n');
  });
});
