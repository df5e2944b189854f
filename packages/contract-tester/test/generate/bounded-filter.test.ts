import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import { keepWhere } from '../../src/generate/bounded-filter.js';
import { UnmakeableValue } from '../../src/generate/valid-values.js';

describe('a bounded filter', () => {
  it('keeps what passes, and generates and shrinks as the filter of fast-check does', () => {
    const isEven = (value: number) => value % 2 === 0;
    const even = keepWhere(fc.integer({ min: 0, max: 1000 }), isEven, 'an even number');
    expect(fc.sample(even, { numRuns: 50, seed: 1 })).toEqual(
      fc.sample(fc.integer({ min: 0, max: 1000 }).filter(isEven), { numRuns: 50, seed: 1 }),
    );
    const ours = fc.check(
      fc.property(even, (value) => value < 10),
      { seed: 1 },
    );
    const theirs = fc.check(
      fc.property(fc.integer({ min: 0, max: 1000 }).filter(isEven), (value) => value < 10),
      { seed: 1 },
    );
    expect(ours.counterexample).toEqual(theirs.counterexample);
    expect(ours.numShrinks).toBeGreaterThan(0);
  });

  it('ends a filter that can never pass with the reason, instead of spinning', { timeout: 1000 }, () => {
    const never = keepWhere(fc.integer(), () => false, 'a value of an impossible schema');
    expect(() => fc.sample(never, { numRuns: 1, seed: 1 })).toThrow(UnmakeableValue);
    expect(() => fc.sample(never, { numRuns: 1, seed: 1 })).toThrow(/cannot generate a value of an impossible schema/);
  });

  it('stops at the end of the budget, whatever its predicate asks', () => {
    const always = keepWhere(fc.integer(), () => true, 'any integer');
    setGenerationDeadline(performance.now() - 1);
    expect(() => fc.sample(always, { numRuns: 1, seed: 1 })).toThrow(DeadlineReached);
    setGenerationDeadline(undefined);
    expect(fc.sample(always, { numRuns: 1, seed: 1 })).toHaveLength(1);
  });
});

afterEach(() => setGenerationDeadline(undefined));
