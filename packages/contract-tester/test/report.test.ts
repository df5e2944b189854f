import { describe, expect, it } from 'vitest';
import { failureReport, replayCommand, resultLine, summary } from '../src/report.js';
import { failed, passed, run, skipped } from './support/contract-test-results.js';

describe('the text report', () => {
  it('gives a line per check', () => {
    expect(resultLine(passed)).toBe('✓ getPet: valid requests (10 cases, 10 requests, 1.5 s)');
    expect(resultLine(failed)).toBe('✗ getPet: non-canonical number (3 cases, 7 requests, 0.3 s)');
    expect(resultLine(skipped)).toBe('- links: sequences (needs an API key)');
  });

  it('prints a failure as what is wrong, curl commands, and the command that replays it', () => {
    expect(failureReport(run, failed)).toBe(
      [
        '✗ getPet: non-canonical number',
        '  failed at case 3, shrunk 4 times to:',
        '  the request: petId = "+1" is not a canonical integer',
        '  a request that breaks the contract must be refused with a 4xx, but got 200 {}',
        '  Reproduce (the key from $PETSTORE_API_KEY):',
        `    curl -i --path-as-is -g 'https://staging-api.petstore.example/v1/pets/%2B1' -H "Authorization: Bearer $PETSTORE_API_KEY"`,
        '      → 200',
        '  Replay:',
        "    npm run contract-test -- --base-url 'https://staging-api.petstore.example/v1' --seed 42 --check 'getPet: non-canonical number' --path '2:0:1'",
      ].join('\n'),
    );
    expect(replayCommand(run, passed)).toBeUndefined();
  });

  it('ends with every failure and the totals, the seed among them', () => {
    const text = summary(run);
    expect(text.startsWith('✗ getPet: non-canonical number\n')).toBe(true);
    expect(text.endsWith('3 checks: 1 passed, 1 failed, 1 skipped; 17 requests in 2.5 s; seed 42')).toBe(true);
  });
});
