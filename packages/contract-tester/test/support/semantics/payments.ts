import type { OpenApiDocument } from '../../../src/spec/openapi.js';

/** A payment is a card or an invoice and nothing else: a oneOf beside unevaluatedProperties: false. */
export function paymentsSpec(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'payments', version: '1.0.0' },
    servers: [{ url: 'http://localhost/api' }],
    paths: {
      '/payments': {
        post: {
          operationId: 'pay',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Payment' } } } },
          responses: { '201': { description: 'paid' }, '400': { description: 'refused' } },
        },
      },
    },
    components: {
      schemas: {
        Payment: {
          oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Invoice' }],
          unevaluatedProperties: false,
        },
        Card: {
          type: 'object',
          required: ['kind', 'brand'],
          properties: { kind: { const: 'card' }, brand: { type: 'string', enum: ['visa', 'mastercard'] } },
        },
        Invoice: {
          type: 'object',
          required: ['kind', 'iban'],
          properties: { kind: { const: 'invoice' }, iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{8,30}$' } },
        },
      },
    },
  };
}
