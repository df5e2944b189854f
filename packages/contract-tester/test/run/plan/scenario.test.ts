import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixed, property } from '../../../src/run/plan/scenario.js';

describe('scenarios', () => {
  it('as a property: weighted, its cases from an arbitrary, each sent by its run', async () => {
    const scenario = property('a', 'fuzzing', 'op', 3, fc.nat(), async (value) => [{ value }] as never);
    expect(scenario).toMatchObject({ name: 'a', phase: 'fuzzing', group: 'op', weight: 3 });
    expect(await scenario.run(7)).toEqual([{ value: 7 }]);
  });

  it('as fixed cases: no weight, each case sent once', async () => {
    const scenario = fixed('b', 'examples', 'op', [1, 2], async (value) => [{ value }] as never);
    expect(scenario).toMatchObject({ weight: 0, cases: [1, 2] });
    expect(await scenario.run(2)).toEqual([{ value: 2 }]);
  });
});
