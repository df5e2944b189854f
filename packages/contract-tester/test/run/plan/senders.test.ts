import { describe, expect, it } from 'vitest';
import { unmakeable } from '../../../src/run/plan/senders.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { planSession } from '../../support/plan-session.js';

describe('what planners send with', () => {
  it('tells that valid requests of an operation can be made', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    expect(session.api.operations.map((operation) => unmakeable(session, operation)).filter(Boolean)).toEqual([]);
  });
});
