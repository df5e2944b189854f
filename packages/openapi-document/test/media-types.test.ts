import { describe, expect, it } from 'vitest';
import { isJsonMediaType, mediaTypeEssence } from '../src/media-types.js';

describe('JSON media types', () => {
  it('are application/json, text/json and every +json type, whatever their case and parameters', () => {
    expect(
      [
        'application/json',
        'application/problem+json',
        'application/merge-patch+json',
        'application/vnd.api+json',
        'Application/JSON; charset=utf-8',
        'text/json',
      ].every(isJsonMediaType),
    ).toBe(true);
    expect(['application/jsonx', 'text/plain', 'application/xml', 'json', 'application/json/x'].some(isJsonMediaType)).toBe(false);
  });

  it('are told by their essence', () => {
    expect(mediaTypeEssence(' Application/JSON ; charset=utf-8')).toBe('application/json');
  });
});
