import { describe, expect, it } from 'vitest';
import { addressesExactly, whereOf } from '../../../src/stateful/checks/sequence-step.js';
import { step } from '../../support/sequence-step.js';

describe('a step of a sequence', () => {
  it('is named by its method, target and status', () => {
    expect(whereOf(step('get', 404).exchange)).toBe('GET /v1/pets/1 → 404');
  });

  it('addresses the resource exactly only at its path, with or without a query, and never without one made', () => {
    expect(addressesExactly(step('get', 200))).toBe(true);
    expect(addressesExactly(step('get', 200, { target: '/v1/pets/1?fields=name' }))).toBe(true);
    expect(addressesExactly(step('get', 200, { target: '/v1/pets/1/orders' }))).toBe(false);
    expect(addressesExactly(step('get', 200, { target: '/v1/pets/10' }))).toBe(false);
    expect(addressesExactly(step('get', 200, { state: 'none' }))).toBe(false);
  });
});
