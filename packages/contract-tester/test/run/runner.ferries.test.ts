import { describe, expect, it } from 'vitest';
import type { CheckName } from '../../src/registry/checks.js';
import { failureTitle } from '../../src/report/report.js';
import { runContractTests, type RunResult } from '../../src/run/runner.js';
import { loadSpec } from '../../src/spec/load.js';
import { startFerries, FERRY_BUGS, FERRIES_SPEC, FERRIES_TOKEN, type FerryBug } from '../support/test-bed/ferries.js';

/**
 * An OpenAPI 3.1 document in the shape of a typical public booking API, the test bed's own (a ferry
 * line: test/support/test-bed/ferries.yaml), as a new user would try it: a small correct
 * server, then the same server with one planted bug at a time. OAuth2 with scopes, a oneOf payment
 * source under unevaluatedProperties: false, a readOnly required id, a writeOnly required cvc,
 * problem+json errors, enums and date-times.
 */

/** The check that names each bug, and what else the bug makes the server say (an invalid value it took, echoed). */
const NAMED_BY: Record<FerryBug, { check: CheckName; besides: CheckName[] }> = {
  'response-enum-outside-spec': { check: 'response_schema_conformance', besides: [] },
  'branch-enum-unchecked': { check: 'negative_data_rejection', besides: ['response_schema_conformance'] },
  'ignores-auth': { check: 'ignored_auth', besides: [] },
  'wrong-content-type': { check: 'content_type_conformance', besides: [] },
  'loses-creates': { check: 'ensure_resource_availability', besides: [] },
  'serves-deleted': { check: 'use_after_free', besides: [] },
  'unknown-member-accepted': { check: 'negative_data_rejection', besides: ['response_schema_conformance'] },
};

async function test(bug?: FerryBug, seed = 2026): Promise<RunResult> {
  const server = await startFerries(bug);
  try {
    return await runContractTests({
      baseUrl: server.baseUrl,
      document: await loadSpec(FERRIES_SPEC),
      requests: 400,
      seed,
      credentials: { security: { OAuth2: FERRIES_TOKEN } },
    });
  } finally {
    await server.close();
  }
}

const described = (run: RunResult) => run.failures.map((failure) => `${failureTitle(failure)}: ${failure.message}`);

describe('the ferry line (a booking API, 3.1)', { timeout: 180_000 }, () => {
  it('a correct server: nothing reported, every operation exercised, with seeds 1 and 2026', async () => {
    for (const seed of [1, 2026]) {
      const run = await test(undefined, seed);
      expect(described(run), `seed ${seed}`).toEqual([]);
      expect(run.notExercised).toEqual([]);
      expect(run.skipped).toEqual([]);
    }
  });

  it('sends no readOnly property and expects none refused; requires no writeOnly one of a response', async () => {
    const server = await startFerries();
    const sent: Array<{ target: string; status: number; body: Record<string, unknown>; answer: Record<string, unknown> }> = [];
    const json = (bytes: Buffer | undefined) => {
      try {
        const value = bytes?.length ? (JSON.parse(bytes.toString('utf8')) as unknown) : {};
        // A body that is not an object (a negative case's `0`) has no members to look at.
        return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
      } catch {
        return {}; // a body that is not JSON, on purpose
      }
    };
    try {
      const run = await runContractTests({
        baseUrl: server.baseUrl,
        document: await loadSpec(FERRIES_SPEC),
        requests: 300,
        seed: 7,
        credentials: { security: { OAuth2: FERRIES_TOKEN } },
        onExchange: ({ request, target, response }) => {
          if (request.method === 'POST' && response)
            sent.push({ target, status: response.status, body: json(request.body), answer: json(response.bytes) });
        },
      });
      expect(described(run)).toEqual([]);
    } finally {
      await server.close();
    }
    // The server ignores a client's id: had the tester sent a bad one expecting a 400, it would have failed above.
    const reservations = sent.filter(({ target }) => target.endsWith('/reservations'));
    const payments = sent.filter(({ target }) => target.endsWith('/payment'));
    expect(reservations.filter(({ status }) => status === 201).length).toBeGreaterThan(0);
    expect(reservations.filter(({ body }) => 'id' in body)).toEqual([]);
    expect(payments.filter(({ body }) => 'id' in body || 'status' in body)).toEqual([]);
    // Cards paid for: each sent with its cvc (writeOnly, required), each answered without it.
    const cards = payments.filter(({ status, body }) => status === 200 && (body['source'] as Record<string, unknown>)['exp_month']);
    expect(cards.length).toBeGreaterThan(0);
    for (const { body, answer } of cards) {
      expect(body['source']).toHaveProperty('cvc');
      expect(answer['source']).not.toHaveProperty('cvc');
    }
  });

  it.each(FERRY_BUGS)('planted bug %s: found and named, nothing else beside it', async (bug) => {
    const run = await test(bug);
    const checks = new Set(run.failures.map(({ check }) => check));
    expect([...checks], described(run).join('\n')).toContain(NAMED_BY[bug].check);
    expect(
      [...checks].filter((check) => check !== NAMED_BY[bug].check && !NAMED_BY[bug].besides.includes(check)),
      described(run).join('\n'),
    ).toEqual([]);
  });
});
