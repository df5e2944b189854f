import { describe, expect, it } from 'vitest';
import { planExamples } from '../../../src/run/plan/examples.js';
import { operationTarget } from '../../../src/run/plan/target.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { emptyPlan, planContext, planSession } from '../../support/plan-session.js';

describe('the examples planner', () => {
  it("plans an operation's examples as one fixed scenario, only in the examples phase", () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const create = session.api.operations.find(({ id }) => id === 'createExhibition')!;
    const plan = emptyPlan();
    planExamples(planContext(session), plan, operationTarget(session, create));
    expect(plan.scenarios.map(({ name, phase, cases }) => [name, phase, (cases?.length ?? 0) > 0])).toEqual([
      ['createExhibition: examples', 'examples', true],
    ]);
    const none = emptyPlan();
    planExamples(planContext(session, ['coverage']), none, operationTarget(session, create));
    expect(none.scenarios).toEqual([]);
  });
});
