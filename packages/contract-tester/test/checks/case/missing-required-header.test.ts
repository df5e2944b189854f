import { describe, expect, it } from 'vitest';
import { missingRequiredHeader } from '../../../src/checks/case/missing-required-header.js';
import { REFUSED_BY_ANY_4XX, refusalsOf } from '../../support/case-answer.js';

describe('missing_required_header', () => {
  it('holds a request that breaks a required header to any 4xx, and leaves a server error to not_a_server_error', () => {
    expect(refusalsOf(missingRequiredHeader)).toEqual(REFUSED_BY_ANY_4XX);
  });
});
