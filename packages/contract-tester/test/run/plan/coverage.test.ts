import { describe, expect, it } from 'vitest';
import { planCoverage, planOptions } from '../../../src/run/plan/coverage.js';
import { operationTarget } from '../../../src/run/plan/target.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { emptyPlan, planContext, planSession } from '../../support/plan-session.js';

describe('the coverage planner', () => {
  it("plans an operation's boundaries, and a path's OPTIONS, as fixed scenarios of the coverage phase", () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const update = session.api.operations.find(({ id }) => id === 'updateExhibition')!;
    const plan = emptyPlan();
    planCoverage(planContext(session), plan, operationTarget(session, update));
    planOptions(planContext(session), plan, update.path, update);
    expect(plan.scenarios.map(({ name, phase }) => [name, phase])).toEqual([
      ['updateExhibition: coverage', 'coverage'],
      ['/exhibitions/{exhibitionId}: OPTIONS', 'coverage'],
    ]);
    const none = emptyPlan();
    planCoverage(planContext(session, ['fuzzing']), none, operationTarget(session, update));
    planOptions(planContext(session, ['fuzzing']), none, update.path, update);
    expect(none.scenarios).toEqual([]);
  });
});
