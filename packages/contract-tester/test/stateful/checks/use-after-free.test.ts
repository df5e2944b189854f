import { describe, expect, it } from 'vitest';
import { useAfterFree } from '../../../src/stateful/checks/use-after-free.js';
import { step } from '../../support/sequence-step.js';

describe('use_after_free', () => {
  it('finds a deleted resource served again, but to a DELETE or a PUT that makes it anew', () => {
    expect(useAfterFree.check(step('GET', 200, { state: 'deleted' }))).toEqual([
      'GET /v1/pets/1 → 200: /v1/pets/1 was deleted (a DELETE answered 2xx), but is still served',
    ]);
    expect(useAfterFree.check(step('GET', 200, { state: 'deleted', target: '/v1/pets/1/photos' }))).toHaveLength(1);
    expect(useAfterFree.check(step('GET', 404, { state: 'deleted' }))).toEqual([]);
    expect(useAfterFree.check(step('DELETE', 204, { state: 'deleted' }))).toEqual([]);
    expect(useAfterFree.check(step('PUT', 200, { state: 'deleted' }))).toEqual([]);
    expect(useAfterFree.check(step('PUT', 200, { state: 'deleted', target: '/v1/pets/1/photos' }))).toHaveLength(1);
    expect(useAfterFree.check(step('GET', 200))).toEqual([]);
  });
});
