import { describe, expect, it } from 'vitest';
import { normalizeDialect } from '../../src/spec/dialect.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';

const document = (openapi: string, schemas: Record<string, unknown>): OpenApiDocument =>
  ({ openapi, info: { title: 'T', version: '1' }, paths: {}, components: { schemas } }) as OpenApiDocument;

describe("a 3.0 document's schemas, read as JSON Schema 2020-12", () => {
  it('turn nullable into a null type, or a null value of an enum', () => {
    const spec = document('3.0.3', {
      A: { type: 'string', nullable: true },
      B: { type: 'string', enum: ['a'], nullable: true },
      C: { nullable: true, allOf: [{ $ref: '#/components/schemas/A' }] },
      D: { type: 'integer', nullable: false },
    });
    normalizeDialect(spec);
    expect(spec.components.schemas).toEqual({
      A: { type: ['string', 'null'] },
      B: { type: ['string', 'null'], enum: ['a', null] },
      C: { anyOf: [{ type: 'null' }, { allOf: [{ $ref: '#/components/schemas/A' }] }] },
      D: { type: 'integer' },
    });
  });

  it('turn boolean exclusive bounds into numbers', () => {
    const spec = document('3.0.0', { N: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false } });
    normalizeDialect(spec);
    expect(spec.components.schemas['N']).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 5 });
  });

  it('leave examples alone, and a 3.1 document as it is', () => {
    const spec = document('3.0.1', { E: { type: 'object', example: { nullable: true } } });
    normalizeDialect(spec);
    expect(spec.components.schemas['E']).toEqual({ type: 'object', example: { nullable: true } });
    const modern = document('3.1.0', { A: { type: 'string', nullable: true } });
    normalizeDialect(modern);
    expect(modern.components.schemas['A']).toEqual({ type: 'string', nullable: true });
  });
});

describe('patterns that are no ECMA-262 regular expression (as in AWS documents)', () => {
  it('are set aside, so that a schema is read without them instead of crashing the run', () => {
    const spec = document('3.1.0', {
      A: { type: 'string', pattern: '^((`[\\w- ]+`)|([\\w\\-]+))$' },
      B: { type: 'string', pattern: '[\\p{all}]*' },
      C: { type: 'string', pattern: '^[a-z]+$' },
      D: { type: 'string', enum: ['x'], example: { pattern: '[' } },
    });
    normalizeDialect(spec);
    expect(spec.components.schemas).toEqual({
      A: { type: 'string', 'x-unusable-pattern': '^((`[\\w- ]+`)|([\\w\\-]+))$' },
      B: { type: 'string', 'x-unusable-pattern': '[\\p{all}]*' },
      C: { type: 'string', pattern: '^[a-z]+$' },
      D: { type: 'string', enum: ['x'], example: { pattern: '[' } },
    });
  });
});
