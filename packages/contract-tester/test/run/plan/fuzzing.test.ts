import { describe, expect, it } from 'vitest';
import { planFuzzing, planWrongMethods } from '../../../src/run/plan/fuzzing.js';
import { operationTarget } from '../../../src/run/plan/target.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { emptyPlan, planContext, planSession } from '../../support/plan-session.js';

describe('the fuzzing planner', () => {
  it('plans valid requests and one property per rule an invalid request breaks, and returns every kind it makes', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const update = session.api.operations.find(({ id }) => id === 'updateExhibition')!;
    const plan = emptyPlan();
    const kinds = planFuzzing(planContext(session), plan, operationTarget(session, update));
    const names = plan.scenarios.map(({ name }) => name);
    expect(names[0]).toBe('updateExhibition: valid requests');
    expect(names).toContain('updateExhibition: wrong type');
    expect(plan.scenarios.every(({ phase }) => phase === 'fuzzing')).toBe(true);
    // The valid requests, and the cases of each rule.
    expect(kinds).toHaveLength(names.length);
  });

  it("plans a path's methods not allowed", () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const update = session.api.operations.find(({ id }) => id === 'updateExhibition')!;
    const plan = emptyPlan();
    planWrongMethods(planContext(session), plan, update.path, update);
    expect(plan.scenarios.map(({ name }) => name)).toEqual(['/exhibitions/{exhibitionId}: methods not allowed']);
  });
});
