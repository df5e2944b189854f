import type { OpenApiDocument } from '../../../src/spec/openapi.js';

/** The `$id` both documents use twice. */
export const SHARED_ID = 'https://example.com/product';

/**
 * An API that serves JSON Schemas (as Akeneo's does): with `in: 'examples'`, two examples of a
 * mapping schema carry the same `$id`, which is data; with `in: 'schemas'`, two of the document's
 * own schemas claim it, which JSON Schema forbids.
 */
export function schemaIdsSpec(where: 'examples' | 'schemas'): OpenApiDocument {
  const example = { $id: SHARED_ID, type: 'object', properties: { uuid: { type: 'string' } } };
  const mapping = {
    type: 'object',
    properties: { $id: { type: 'string' }, type: { type: 'string' } },
    example,
    ...(where === 'schemas' ? { $id: SHARED_ID } : {}),
  };
  const content = (schema: unknown) => ({ 'application/json': { schema } });
  return {
    openapi: '3.0.3',
    info: { title: 'mapping schemas', version: '1.0.0' },
    servers: [{ url: 'http://localhost/api' }],
    paths: {
      '/mapping': {
        get: {
          operationId: 'getMapping',
          responses: { '200': { description: 'the mapping', content: content({ $ref: '#/components/schemas/Mapping' }) } },
        },
        put: {
          operationId: 'putMapping',
          requestBody: { required: true, content: content({ $ref: '#/components/schemas/Mapping' }) },
          responses: { '204': { description: 'saved' }, '400': { description: 'refused' } },
        },
      },
    },
    components: {
      schemas: {
        Mapping: mapping,
        Saved: { ...mapping, 'x-sample': { example } },
      },
    },
  };
}

/** The `$id` of the Pet schema of `refInsideIdSpec`. */
export const PET_ID = 'https://example.com/schemas/pet';

/**
 * A spec whose Pet schema has an `$id` and, inside it, a `$ref` to the document's components (by
 * default; `tag` replaces it) and one to the Pet's own `name`.
 */
export function refInsideIdSpec(tag: unknown = { $ref: '#/components/schemas/Tag' }) {
  const answer = (description: string, ref: string) => ({
    '200': { description, content: { 'application/json': { schema: { $ref: ref } } } },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'ids', version: '1' },
    paths: {
      '/pets': { get: { responses: answer('a pet', '#/components/schemas/Pet') } },
      '/tags': { get: { responses: answer('a tag', '#/components/schemas/Tag') } },
    },
    components: {
      schemas: {
        Pet: {
          $id: PET_ID,
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, tag, self: { $ref: '#/properties/name' } } as Record<string, unknown>,
        },
        Tag: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } },
      },
    },
  };
}
