import { describe, expect, it } from 'vitest';
import { readBack } from '../../../src/stateful/checks/read-back.js';
import { step } from '../../support/sequence-step.js';

describe('read_back', () => {
  it('finds a read of the resource that answers other than its last write, by the same schema', () => {
    expect(readBack.check(step('GET', 200, { body: { id: 1, name: 'Rex' } }))).toEqual([]);
    expect(readBack.check(step('GET', 200, { body: { id: 1, name: 'Max' } }))).toEqual([
      'GET /v1/pets/1 → 200: reads back {"id":1,"name":"Max"}, not what the last write answered: {"id":1,"name":"Rex"}',
    ]);
    expect(readBack.check(step('GET', 200, { body: { id: 1, name: 'Max' }, target: '/v1/pets/1?fields=name' }))).toHaveLength(1);
    expect(readBack.check(step('GET', 200, { body: { id: 1, name: 'Max' }, target: '/v1/pets/1/photos' }))).toEqual([]);
    expect(readBack.check(step('GET', 200, { body: { id: 1, name: 'Max' }, state: 'deleted' }))).toEqual([]);
    expect(readBack.check(step('GET', 200, { body: [], operation: 'listPets' }))).toEqual([]);
  });
});
