import { describe, expect, it } from 'vitest';
import { DOCUMENT_URI } from '../../src/checks/id-bases.js';
import { explainErrors } from '../../src/checks/schema-errors.js';
import { createAjv } from '../../src/generate/schema-validator.js';

// A payment is a card or an invoice, nothing else (unevaluatedProperties: false beside the oneOf).
const document = {
  components: {
    schemas: {
      Payment: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Invoice' }], unevaluatedProperties: false },
      Card: {
        type: 'object',
        required: ['kind', 'number', 'brand'],
        properties: { kind: { const: 'card' }, number: { type: 'string' }, brand: { enum: ['visa', 'mc'] } },
      },
      Invoice: { type: 'object', required: ['kind', 'iban'], properties: { kind: { const: 'invoice' }, iban: { type: 'string' } } },
      Order: {
        type: 'object',
        properties: { payment: { $ref: '#/components/schemas/Payment' }, total: { type: 'integer' } },
      },
      Either: {
        anyOf: [
          { type: 'string', title: 'a code' },
          { type: 'integer', minimum: 1 },
        ],
      },
    },
  },
};

function explained(pointer: string, value: unknown): string {
  const ajv = createAjv({ verbose: true });
  ajv.addSchema(document, DOCUMENT_URI);
  const validate = ajv.getSchema(`${DOCUMENT_URI}#${pointer}`)!;
  expect(validate(value)).toBe(false);
  return explainErrors(ajv, validate.errors, value);
}

describe('the errors of a failed validation', () => {
  it('a oneOf no branch takes: the branch that came closest, and its errors alone', () => {
    expect(explained('/components/schemas/Payment', { kind: 'card', number: '1', brand: 'amex' })).toBe(
      'data matches no branch of the oneOf; the closest is branch 0 (Card): data/brand must be equal to one of the allowed values ["visa","mc"]',
    );
    expect(explained('/components/schemas/Payment', { kind: 'invoice' })).toBe(
      "data matches no branch of the oneOf; the closest is branch 1 (Invoice): data must have required property 'iban'",
    );
  });

  it('deeper in the value, beside errors of its own; an anyOf as a oneOf', () => {
    // The invoice branch takes it, but then nothing takes its brand.
    expect(explained('/components/schemas/Order', { payment: { kind: 'invoice', iban: 'x', brand: 'visa' }, total: 1.5 })).toBe(
      'data/payment must NOT have unevaluated properties (brand); data/total must be integer',
    );
    expect(explained('/components/schemas/Order', { payment: { kind: 'card', brand: 'visa' } })).toBe(
      "data/payment matches no branch of the oneOf; the closest is branch 0 (Card): data/payment must have required property 'number'",
    );
    expect(explained('/components/schemas/Either', 0)).toBe(
      'data matches no branch of the anyOf; the closest is branch 1: data must be >= 1',
    );
  });

  it('a value more than one branch of a oneOf takes', () => {
    const ajv = createAjv({ verbose: true });
    const validate = ajv.compile({ oneOf: [{ type: 'integer' }, { type: 'number' }] });
    expect(validate(1)).toBe(false);
    expect(explainErrors(ajv, validate.errors, 1)).toBe('data matches branch 0 and branch 1 of the oneOf, where exactly one may match');
  });
});
