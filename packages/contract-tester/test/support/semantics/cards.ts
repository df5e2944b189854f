import type { OpenApiDocument } from '../../../src/spec/openapi.js';

/**
 * A card API whose one schema is both read and written: `id` is readOnly and `cvc` writeOnly, and
 * both are required (OpenAPI: each then applies to its own direction only).
 */
export function cardsSpec(version: '3.0.3' | '3.1.0'): OpenApiDocument {
  return {
    openapi: version,
    info: { title: 'cards', version: '1.0.0' },
    servers: [{ url: 'http://localhost/api' }],
    paths: {
      '/cards': {
        post: {
          operationId: 'createCard',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } },
          responses: {
            '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Card' } } } },
            '400': { description: 'refused' },
          },
        },
      },
    },
    components: {
      schemas: {
        Card: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'number', 'cvc'],
          properties: {
            id: { type: 'string', format: 'uuid', readOnly: true },
            number: { type: 'string', pattern: '^[0-9]{16}$' },
            cvc: { type: 'string', pattern: '^[0-9]{3}$', writeOnly: true },
          },
        },
      },
    },
  };
}
