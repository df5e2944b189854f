import { describe, expect, it } from 'vitest';
import { creatorsOf, unmakeable } from '../../../src/run/plan/senders.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { planSession } from '../../support/plan-session.js';

describe('what planners send with', () => {
  it('finds the creates that make what an operation acts on', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const operations = session.api.operations;
    const update = operations.find(({ id }) => id === 'updateExhibition')!;
    expect(creatorsOf(session, update, operations).map(({ id }) => id)).toEqual(['createExhibition']);
    expect(creatorsOf(session, update, [update])).toEqual([]);
  });

  it('tells that valid requests of an operation can be made', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    expect(session.api.operations.map((operation) => unmakeable(session, operation)).filter(Boolean)).toEqual([]);
  });
});
