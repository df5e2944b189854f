import { describe, expect, it } from 'vitest';
import { ConfigError, object, only, pointer, statuses, strings, text } from '../src/settings.js';

describe("a config's settings", () => {
  it('are read as what they must be, or refused naming where they are', () => {
    expect(object({ a: 1 }, 'checks')).toEqual({ a: 1 });
    for (const value of [null, [], 'x', 1]) expect(() => object(value, 'checks')).toThrow(new ConfigError('checks must be an object'));
    expect(strings(['a', 'b'], 'forbidden')).toEqual(['a', 'b']);
    expect(() => strings(['a', 1], 'forbidden')).toThrow('forbidden must be a list of strings');
    expect(() => strings('a', 'forbidden')).toThrow(ConfigError);
    expect(text('x', 'name')).toBe('x');
    expect(() => text(1, 'name')).toThrow('name must be a string');
  });

  it('name keys no check takes, beside the ones it knows', () => {
    expect(() => only({ schema: 1 }, ['schema', 'mediaType'], 'error_schema_conformance')).not.toThrow();
    expect(() => only({ schema: 1, colour: 2 }, ['schema', 'mediaType'], 'error_schema_conformance')).toThrow(
      'error_schema_conformance: unknown colour (known: schema, mediaType)',
    );
  });

  it('take a JSON pointer into the document, without its #', () => {
    expect(pointer('#/components/schemas/Error', 'schema')).toBe('/components/schemas/Error');
    expect(() => pointer('components/schemas/Error', 'schema')).toThrow(/must be a JSON pointer such as #\/components\/schemas\/Error/);
  });

  it('take statuses from 100 to 599 only, none when absent', () => {
    expect(statuses({}, 'allowed', 'state_refusals')).toEqual([]);
    expect(statuses({ allowed: [404, 409] }, 'allowed', 'state_refusals')).toEqual([404, 409]);
    for (const bad of [[99], [600], [404.5], ['404'], 404])
      expect(() => statuses({ allowed: bad }, 'allowed', 'state_refusals')).toThrow('state_refusals.allowed must be a list of statuses');
  });
});
