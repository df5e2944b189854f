import { describe, expect, it } from 'vitest';
import { deleteIsFinal } from '../../../src/stateful/checks/delete-is-final.js';
import { step } from '../../support/sequence-step.js';

describe('delete_is_final', () => {
  it('finds a second DELETE of a deleted resource that succeeds', () => {
    expect(deleteIsFinal.check(step('DELETE', 204, { state: 'deleted' }))).toEqual([
      'DELETE /v1/pets/1 → 204: /v1/pets/1 was deleted already; a second DELETE must be 404 or 410',
    ]);
    expect(deleteIsFinal.check(step('DELETE', 404, { state: 'deleted' }))).toEqual([]);
    expect(deleteIsFinal.check(step('DELETE', 204))).toEqual([]);
    expect(deleteIsFinal.check(step('DELETE', 204, { state: 'deleted', target: '/v1/pets/1/photos/2' }))).toEqual([]);
  });
});
