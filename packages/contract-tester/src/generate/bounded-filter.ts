import fc from 'fast-check';
import { checkDeadline, rethrowDeadline } from '../deadline.js';

/** A value the tester cannot make: an error at generation, which skips the case's operation with the reason. */
export class UnmakeableValue extends Error {}

/** How many values in a row a filter may refuse before generation gives up. */
export const MAX_TRIES = 1000;

/**
 * fast-check's `filter`, bounded: fast-check's own retries forever, so a predicate that can never
 * pass (a schema whose parts contradict, or that the generator reads more loosely than the
 * validator) would spin at full CPU. This one stops after MAX_TRIES refusals in a row with an
 * UnmakeableValue naming what could not be made, which leaves the operation untested with that
 * reason.
 */
class BoundedFilter<T, U extends T> extends fc.Arbitrary<U> {
  constructor(
    private readonly source: fc.Arbitrary<T>,
    private readonly keep: (value: T) => value is U,
    private readonly what: string,
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<U> {
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      checkDeadline();
      const candidate = this.source.generate(random, biasFactor);
      if (this.keep(candidate.value)) return candidate as fc.Value<U>;
    }
    throw new UnmakeableValue(`cannot generate ${this.what}: ${MAX_TRIES} values in a row were refused`);
  }

  canShrinkWithoutContext(value: unknown): value is U {
    return this.source.canShrinkWithoutContext(value) && this.keep(value);
  }

  shrink(value: U, context: unknown): fc.Stream<fc.Value<U>> {
    return this.source.shrink(value, context).filter((candidate) => this.keep(candidate.value)) as fc.Stream<fc.Value<U>>;
  }
}

export function keepWhere<T, U extends T>(source: fc.Arbitrary<T>, keep: (value: T) => value is U, what: string): fc.Arbitrary<U>;
export function keepWhere<T>(source: fc.Arbitrary<T>, keep: (value: T) => boolean, what: string): fc.Arbitrary<T>;
export function keepWhere<T>(source: fc.Arbitrary<T>, keep: (value: T) => boolean, what: string): fc.Arbitrary<T> {
  return new BoundedFilter(source, keep as (value: T) => value is T, what);
}

/**
 * Whether an arbitrary makes values at all: a rule a branch's siblings all take, a filter that never
 * passes, a schema past a recursion cut make none.
 */
export function makesValues(arbitrary: fc.Arbitrary<unknown>): boolean {
  try {
    return fc.sample(arbitrary, { numRuns: 3, seed: 1 }).length > 0;
  } catch (error) {
    rethrowDeadline(error);
    return false;
  }
}
