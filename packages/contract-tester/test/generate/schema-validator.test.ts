import { describe, expect, it } from 'vitest';
import { UnmakeableValue } from '../../src/generate/bounded-filter.js';
import { createAjv, isValid } from '../../src/generate/schema-validator.js';

describe('the validator of generated values', () => {
  it('judges int64 over its whole range, exactly at both ends', () => {
    const schema = { type: 'integer', format: 'int64' };
    expect(isValid(schema, 2 ** 53)).toBe(true);
    expect(isValid(schema, 2n ** 53n + 1n)).toBe(true);
    expect(isValid(schema, 2n ** 63n - 1n)).toBe(true);
    expect(isValid(schema, 2n ** 63n)).toBe(false);
    expect(isValid(schema, -(2n ** 63n))).toBe(true);
    expect(isValid(schema, -(2n ** 63n) - 1n)).toBe(false);
  });

  it('judges int32 and the unsigned formats at their ends', () => {
    expect(isValid({ type: 'integer', format: 'int32' }, 2 ** 31 - 1)).toBe(true);
    expect(isValid({ type: 'integer', format: 'int32' }, 2 ** 31)).toBe(false);
    expect(isValid({ type: 'integer', format: 'uint32' }, -1)).toBe(false);
    expect(isValid({ type: 'integer', format: 'uint64' }, 2n ** 64n - 1n)).toBe(true);
    expect(isValid({ type: 'integer', format: 'uint64' }, 2n ** 64n)).toBe(false);
    expect(isValid({ type: 'integer', format: 'uint64' }, 2n ** 63n)).toBe(true);
    expect(isValid({ type: 'integer', format: 'int64' }, 2n ** 63n + 1n)).toBe(false);
  });

  it('knows the string formats', () => {
    expect(isValid({ type: 'string', format: 'date-time' }, '2026-11-21T00:00:00Z')).toBe(true);
    expect(isValid({ type: 'string', format: 'date-time' }, '2026-02-30T00:00:00Z')).toBe(false);
  });

  it('ignores OpenAPI keywords that are not JSON Schema', () => {
    expect(isValid({ type: 'string', example: 'x', 'x-anything': 1 }, 'a')).toBe(true);
  });

  it('reports errors of a compiled schema', () => {
    const validate = createAjv().compile({ type: 'object', required: ['name'] });
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ missingProperty: 'name' });
  });

  it('refuses a value Ajv cannot compare (an own valueOf key) and makes none of a schema JSON Schema refuses', () => {
    expect(isValid({ enum: [{ a: 1 }] }, { valueOf: 'x' })).toBe(false);
    expect(isValid({ enum: [{ a: 1 }] }, { a: 1 })).toBe(true);
    expect(() => isValid({ type: 'object', properties: { timecode: { type: 'string', pattern: 7 } } }, {})).toThrow(UnmakeableValue);
    expect(() => isValid({ type: 'object', properties: { timecode: { type: 'string', pattern: 7 } } }, {})).toThrow(
      /cannot judge values: schema is invalid: data\/properties\/timecode\/pattern must be string/,
    );
  });
});
