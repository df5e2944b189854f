import { describe, expect, it } from 'vitest';
import { failureReport, failureTitle, replayCommand, resultLine, summary } from '../../src/report/report.js';
import { context, failed, failure, passed, run, skipped } from '../support/contract-test-results.js';

describe('the text report', () => {
  it('gives a line per scenario', () => {
    expect(resultLine(passed)).toBe('✓ getPet: valid requests (10 cases, 10 requests, 1.5 s)');
    expect(resultLine(failed)).toBe('✗ getPet: non-canonical number (3 cases, 7 requests, 0.3 s, 1 failure)');
    expect(resultLine(skipped)).toBe('- stateful: sequences (not run: --max-time reached)');
  });

  it('prints a failure as its check, operation and status, what is wrong, curl commands (secrets as variables), and the command that replays it', () => {
    expect(failureTitle(failure)).toBe('canonical_numbers · getPet · 200');
    expect(failureReport(run, failure, context)).toBe(
      [
        '✗ canonical_numbers · getPet · 200',
        '  found by getPet: non-canonical number, shrunk 4 times:',
        '  the request: petId = "+1" is not a canonical integer',
        '  GET /v1/pets/%2B1 → a request that breaks the contract must be refused with a 4xx, but got 200 {}',
        '  Reproduce (secrets from $CONTRACT_TEST_API_KEY):',
        `    curl -i --path-as-is -g 'https://staging-api.petstore.example/v1/pets/%2B1' -H "Authorization: Bearer $CONTRACT_TEST_API_KEY"`,
        '      → 200',
        '  Replay:',
        `    ${context.command} --seed 42 --replay 'getPet: non-canonical number' --replay-path '2:0:1'`,
      ].join('\n'),
    );
    expect(replayCommand(run, { ...failure, path: undefined }, context.command)).toBeUndefined();
  });

  it('ends with every failure, the warnings, what was not tested and not exercised, and the totals, the seed among them', () => {
    const text = summary(run, context);
    expect(text.startsWith('✗ canonical_numbers · getPet · 200\n')).toBe(true);
    expect(text).toContain('Warnings about the spec:\n  - getPet: example 1 of parameter petId is not valid against its schema; not sent');
    expect(text).toContain('Operations not tested:\n  - uploadPhoto: it needs oauth (oauth2)');
    expect(text).toContain('! Not exercised: no valid request got a success (2xx) from listStoreOrders.');
    expect(text).toContain('(--fail-on-not-exercised makes this a failure)');
    expect(summary({ ...run, failOnNotExercised: true }, context)).toContain('✗ Not exercised:');
    expect(text.endsWith('3 scenarios: 1 passed, 1 failed, 1 skipped; 1 failure; 17 requests in 2.5 s; seed 42')).toBe(true);
  });
});
