import { describe, expect, it } from 'vitest';
import { statefulScenarios } from '../../../src/run/plan/stateful.js';
import type { Action } from '../../../src/stateful/sequences.js';
import { petStoreDocument } from '../../support/pet-store.js';
import { GALLERY_SPEC } from '../../support/test-bed/gallery.js';
import { planSession } from '../../support/plan-session.js';

describe('the stateful planner', () => {
  it('plans sequences and each create’s lifecycle, once in order and as a property', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const scenarios = statefulScenarios(session, session.api.operations);
    expect(scenarios.map(({ name }) => name)).toEqual([
      'stateful: sequences',
      'stateful: createExhibition lifecycle, each operation once',
      'stateful: createExhibition lifecycle',
      'stateful: buyTicket lifecycle, each operation once',
      'stateful: buyTicket lifecycle',
    ]);
    expect(scenarios.find(({ name }) => name.endsWith('each operation once'))!.cases).toHaveLength(1);
    expect(statefulScenarios(session, [])).toEqual([]);
  });

  it('starts the ordered life of a create a link gives a body from that link: an order for a pet made first', () => {
    const session = planSession(petStoreDocument(), { apiKey: 'psk_x' });
    const scenario = statefulScenarios(session, session.api.operations).find(
      ({ name }) => name === 'stateful: createStoreOrder lifecycle, each operation once',
    )!;
    const [actions] = scenario.cases as Action[][];
    expect(actions!.slice(0, 3).map((action) => (action.kind === 'call' ? action.operation.id : `follow to ${action.to?.id}`))).toEqual([
      'createPet',
      'follow to createStoreOrder',
      'getStoreOrder',
    ]);
  });
});
