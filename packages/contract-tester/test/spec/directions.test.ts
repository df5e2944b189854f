import { describe, expect, it } from 'vitest';
import { documentFor, goesOtherWay, schemaFor } from '../../src/spec/directions.js';
import { parseSpec } from '../../src/spec/load.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { schemaIdsSpec, SHARED_ID } from '../support/semantics/schema-ids.js';

describe('the direction a value goes', () => {
  const card = {
    type: 'object',
    required: ['id', 'number', 'cvc'],
    properties: {
      id: { type: 'string', readOnly: true },
      number: { type: 'string' },
      cvc: { type: 'string', writeOnly: true },
    },
  };

  it('a request requires no readOnly property, a response no writeOnly one', () => {
    expect(schemaFor('request', card).required).toEqual(['number', 'cvc']);
    expect(schemaFor('response', card).required).toEqual(['id', 'number']);
    expect(card.required).toEqual(['id', 'number', 'cvc']);
  });

  it('through allOf parts, where one part requires what another declares', () => {
    const train = { allOf: [card, { required: ['id', 'seats'], properties: { seats: { type: 'integer' } } }] };
    const parts = schemaFor('request', train).allOf as Array<{ required: string[] }>;
    expect(parts.map(({ required }) => required)).toEqual([['number', 'cvc'], ['seats']]);
  });

  it('flagged on a $ref target, in a whole document (3.0 and 3.1)', () => {
    for (const version of ['3.0.3', '3.1.0'] as const) {
      const spec = cardsSpec(version);
      const schemas = spec.components.schemas as Record<string, Record<string, unknown>>;
      schemas['Cvc'] = { type: 'string', writeOnly: true };
      (schemas['Card']!['properties'] as Record<string, unknown>)['cvc'] = { $ref: '#/components/schemas/Cvc' };
      const document = parseSpec(JSON.stringify(spec));
      const resolve = (node: unknown) => ((node as { $ref?: string }).$ref ? schemas['Cvc'] : node);
      expect(goesOtherWay({ $ref: '#/components/schemas/Cvc' }, 'response', resolve)).toBe(true);
      const forResponses = documentFor('response', document);
      expect((forResponses.components.schemas as Record<string, { required: string[] }>)['Card']!.required).toEqual(['id', 'number']);
      expect((document.components.schemas as Record<string, { required: string[] }>)['Card']!.required).toEqual(['id', 'number', 'cvc']);
    }
  });
});

describe("the validator's copy of a document", () => {
  it('carries no `$id` in examples or extensions, and keeps schemas, a property named `$id` and the original as they are', () => {
    const document = schemaIdsSpec('examples');
    const copy = documentFor('response', document);
    const { Mapping, Saved } = copy.components.schemas as Record<string, Record<string, unknown>>;
    expect(Mapping!['example']).toEqual({ type: 'object', properties: { uuid: { type: 'string' } } });
    expect(Saved!['x-sample']).toEqual({ example: { type: 'object', properties: { uuid: { type: 'string' } } } });
    expect(Mapping!['properties']).toEqual({ $id: { type: 'string' }, type: { type: 'string' } });
    expect(JSON.stringify(document)).toContain(SHARED_ID);
    const schemas = documentFor('response', schemaIdsSpec('schemas')).components.schemas as Record<string, Record<string, unknown>>;
    expect(schemas['Mapping']!['$id']).toBe(SHARED_ID);
  });
});
