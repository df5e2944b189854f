import { describe, expect, it } from 'vitest';
import { negativeDataRejection } from '../../../src/checks/case/negative-data-rejection.js';
import { REFUSED_BY_ANY_4XX, refusalsOf } from '../../support/case-answer.js';

describe('negative_data_rejection', () => {
  it('holds a request that breaks the spec in one place to any 4xx, and leaves a server error to not_a_server_error', () => {
    expect(refusalsOf(negativeDataRejection)).toEqual(REFUSED_BY_ANY_4XX);
  });
});
