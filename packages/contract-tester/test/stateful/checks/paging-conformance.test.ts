import { describe, expect, it } from 'vitest';
import { pagingConformance } from '../../../src/stateful/checks/paging-conformance.js';
import { linkStep, step } from '../../support/sequence-step.js';

describe('paging_conformance', () => {
  it('finds a next page, reached by a Link header, that repeats an item of the page before', () => {
    const next = linkStep({ header: { name: 'Link', rel: 'next', supplies: ['cursor'] } }, [{ id: 1 }, { id: 2 }]);
    expect(pagingConformance.check(step('GET', 200, { link: next, body: [{ id: 3 }] }))).toEqual([]);
    expect(pagingConformance.check(step('GET', 200, { link: next, body: [{ id: 2 }, { id: 3 }] }))).toEqual([
      'GET /v1/pets/1 → 200: the next page repeats 1 item(s) of the page before: {"id":2}',
    ]);
    expect(pagingConformance.check(step('GET', 200, { link: linkStep({}, [{ id: 2 }]), body: [{ id: 2 }] }))).toEqual([]);
  });
});
