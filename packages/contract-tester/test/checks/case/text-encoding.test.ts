import { describe, expect, it } from 'vitest';
import { textEncoding } from '../../../src/checks/case/text-encoding.js';
import { REFUSED_BY_ANY_4XX, refusalsOf } from '../../support/case-answer.js';

describe('text_encoding', () => {
  it('holds a request that breaks the text encoding to any 4xx, and leaves a server error to not_a_server_error', () => {
    expect(refusalsOf(textEncoding)).toEqual(REFUSED_BY_ANY_4XX);
  });
});
