import { describe, expect, it } from 'vitest';
import { planAuth, planAuthOfSkipped } from '../../../src/run/plan/auth.js';
import { operationTarget } from '../../../src/run/plan/target.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { emptyPlan, planContext, planSession } from '../../support/plan-session.js';

describe('the credentials planner', () => {
  it('plans requests without credentials for an operation that needs them, and 401 first when that check is on', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' }, ['ignored_auth', 'auth_first']);
    const update = session.api.operations.find(({ id }) => id === 'updateExhibition')!;
    const plan = emptyPlan();
    planAuth(planContext(session), plan, operationTarget(session, update), []);
    expect(plan.scenarios.map(({ name }) => name)).toEqual(['updateExhibition: without credentials', 'updateExhibition: 401 first']);
  });

  it('plans 401 first even for an operation skipped for want of credentials', () => {
    const session = planSession(GALLERY_SPEC, {}, ['auth_first']);
    const update = session.api.operations.find(({ id }) => id === 'updateExhibition')!;
    const plan = emptyPlan();
    planAuthOfSkipped(planContext(session), plan, update);
    expect(plan.scenarios.map(({ name }) => name)).toEqual(['updateExhibition: 401 first']);
    const off = emptyPlan();
    planAuthOfSkipped(planContext(session, ['examples']), off, update);
    expect(off.scenarios).toEqual([]);
  });
});
