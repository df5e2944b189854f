import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampledPropertyClasses } from '../../src/generate/unicode-classes.js';
import { validValue } from '../../src/generate/valid-values.js';

// Patterns of public documents (AWS's tags and free texts) and others of the same constructs.
const PATTERNS = [
  '^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$',
  '^[\\P{M}\\p{M}]{1,50}$',
  '^[^\\p{L}]+$',
  '^\\p{Lu}\\p{Ll}{2,}$',
  '^[a-z\\]\\p{N}]+$',
  '^\\p{ASCII}{0,20}$',
  '^(\\p{Script=Greek}|x)+$',
];

afterEach(() => vi.restoreAllMocks());

describe('Unicode property classes, sampled', () => {
  it('leave a pattern without one as it is', () => {
    expect(sampledPropertyClasses('^[a-z\\d]+\\[p{L}]$')).toBe('^[a-z\\d]+\\[p{L}]$');
  });

  it.each(PATTERNS)('make only text the original pattern matches: %s', (source) => {
    const sampled = new RegExp(sampledPropertyClasses(source), 'u');
    expect(sampled.source).not.toMatch(/\\[pP]\{/);
    const original = new RegExp(source, 'u');
    for (const text of fc.sample(fc.stringMatching(sampled), { numRuns: 200, seed: 1 })) expect(original.test(text), text).toBe(true);
  });

  it('never reach fast-check, which tests every code point against them: the generators make text from the sample', () => {
    // fast-check's stringMatching makes a property's ranges by testing each of 1,112,064 code points (seconds, uninterruptible).
    const test = vi.spyOn(RegExp.prototype, 'test');
    const texts = fc.sample(validValue({ type: 'string', pattern: PATTERNS[1] }), { numRuns: 50, seed: 1 });
    expect(test.mock.calls.length).toBeLessThan(100_000);
    test.mockRestore();
    for (const text of texts) expect(text).toMatch(new RegExp(PATTERNS[1]!, 'u'));
  });
});
