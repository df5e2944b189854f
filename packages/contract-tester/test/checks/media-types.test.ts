import { describe, expect, it } from 'vitest';
import { covers, documentedContent, mediaTypeOf, wellFormedMediaType } from '../../src/checks/media-types.js';
import { observed } from '../support/observed-response.js';

describe('media types', () => {
  it('reads the media type of a Content-Type, lower-cased and without parameters', () => {
    expect(mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(undefined)).toBeUndefined();
    expect(mediaTypeOf(['text/plain'])).toBeUndefined();
  });

  it('tells a well-formed media type from one that is not (RFC 9110 §8.3.1)', () => {
    expect(wellFormedMediaType('application/problem+json; charset=utf-8')).toBe(true);
    expect(wellFormedMediaType('application json')).toBe(false);
    expect(wellFormedMediaType('application/')).toBe(false);
    expect(wellFormedMediaType('json')).toBe(false);
  });

  it('covers an actual media type by a range', () => {
    expect(covers('image/*', 'image/png')).toBe(true);
    expect(covers('*/*', 'text/plain')).toBe(true);
    expect(covers('Text/Plain; charset=utf-8', 'text/plain')).toBe(true);
    expect(covers('image/*', 'text/png')).toBe(false);
    expect(covers('text/plain', 'text/html')).toBe(false);
  });

  it('selects documented content by the exact media type first, then by a range', () => {
    const documented = {
      pointer: '/paths/~1x/get/responses/200',
      value: { content: { 'image/*': { schema: { type: 'string' } }, 'image/png': { schema: { const: 'png' } } } },
    };
    const answer = (contentType: string | undefined) => observed({ headers: { 'content-type': contentType } });
    expect(documentedContent(documented, answer('image/PNG'))).toEqual({
      mediaType: 'image/png',
      actual: 'image/png',
      schema: { const: 'png' },
    });
    expect(documentedContent(documented, answer('image/gif'))).toEqual({
      mediaType: 'image/*',
      actual: 'image/gif',
      schema: { type: 'string' },
    });
    expect(documentedContent(documented, answer('text/plain'))).toBeUndefined();
    expect(documentedContent(documented, answer('image gif'))).toBeUndefined();
    expect(documentedContent(documented, answer(undefined))).toBeUndefined();
  });
});
