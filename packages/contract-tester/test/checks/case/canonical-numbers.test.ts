import { describe, expect, it } from 'vitest';
import { canonicalNumbers } from '../../../src/checks/case/canonical-numbers.js';
import { REFUSED_BY_ANY_4XX, refusalsOf } from '../../support/case-answer.js';

describe('canonical_numbers', () => {
  it('holds a request that breaks canonical numbers to any 4xx, and leaves a server error to not_a_server_error', () => {
    expect(refusalsOf(canonicalNumbers)).toEqual(REFUSED_BY_ANY_4XX);
  });
});
