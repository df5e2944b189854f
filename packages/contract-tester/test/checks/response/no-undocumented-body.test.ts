import { describe, expect, it } from 'vitest';
import { observed, petStoreChecker } from '../../support/observed-response.js';

describe('no_undocumented_body', () => {
  it('refuses a body where none is documented', () => {
    expect(petStoreChecker().violations(observed({ status: 304, text: 'x' }))).toEqual([
      'GET /v1/pets → 304: the spec documents no body, but one was sent',
    ]);
  });
});
