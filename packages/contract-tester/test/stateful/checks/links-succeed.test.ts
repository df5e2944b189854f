import { describe, expect, it } from 'vitest';
import { linksSucceed } from '../../../src/stateful/checks/links-succeed.js';
import { GET_PET } from '../../support/case-answer.js';
import { linkStep, step } from '../../support/sequence-step.js';

describe('links_succeed', () => {
  it('finds a declared link from a success that leads elsewhere than a success', () => {
    expect(linksSucceed.check(step('GET', 404, { link: linkStep() }))).toEqual([
      'GET /v1/pets/1 → 404: a link from a success must lead to a success',
    ]);
    expect(linksSucceed.check(step('GET', 200, { link: linkStep() }))).toEqual([]);
    expect(linksSucceed.check(step('GET', 404))).toEqual([]);
    expect(linksSucceed.check(step('GET', 404, { link: linkStep({ inferred: 'body' }) }))).toEqual([]);
  });

  it('takes the answers the sequence made right since: a stale precondition, a target or source deleted', () => {
    const ifMatch = { ...step('PATCH', 412, { link: linkStep(), sinceLink: { written: true } }) };
    ifMatch.exchange.request = { ...GET_PET, method: 'PATCH', headers: [{ name: 'If-Match', value: '"1"' }] };
    expect(linksSucceed.check(ifMatch)).toEqual([]);
    expect(linksSucceed.check(step('PATCH', 412, { link: linkStep(), sinceLink: { written: true } }))).toHaveLength(1);
    expect(linksSucceed.check(step('GET', 410, { link: linkStep(), sinceLink: { deleted: true } }))).toEqual([]);
    expect(linksSucceed.check(step('GET', 400, { link: linkStep(), sinceLink: { deleted: true } }))).toHaveLength(1);
    expect(linksSucceed.check(step('GET', 422, { link: linkStep(), sinceLink: { sourceDeleted: true } }))).toEqual([]);
  });
});
