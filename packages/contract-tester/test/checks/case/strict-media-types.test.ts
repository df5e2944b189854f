import { describe, expect, it } from 'vitest';
import { strictMediaTypes } from '../../../src/checks/case/strict-media-types.js';
import { REFUSED_BY_ANY_4XX, refusalsOf } from '../../support/case-answer.js';

describe('strict_media_types', () => {
  it('holds a request that breaks the media types to any 4xx, and leaves a server error to not_a_server_error', () => {
    expect(refusalsOf(strictMediaTypes)).toEqual(REFUSED_BY_ANY_4XX);
  });
});
