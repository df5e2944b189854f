import { describe, expect, it } from 'vitest';
import { ensureResourceAvailability } from '../../../src/stateful/checks/ensure-resource-availability.js';
import { step } from '../../support/sequence-step.js';

describe('ensure_resource_availability', () => {
  it('finds a resource the sequence made and kept not found, where the request names nothing but it', () => {
    expect(ensureResourceAvailability.check(step('GET', 404))).toEqual([
      'GET /v1/pets/1 → 404: /v1/pets/1, made by createPet in this sequence and not deleted, is not found',
    ]);
    expect(ensureResourceAvailability.check(step('GET', 200))).toEqual([]);
    expect(ensureResourceAvailability.check(step('GET', 404, { state: 'deleted' }))).toEqual([]);
    expect(ensureResourceAvailability.check(step('GET', 404, { state: 'none' }))).toEqual([]);
    expect(ensureResourceAvailability.check(step('DELETE', 404))).toEqual([]);
  });
});
