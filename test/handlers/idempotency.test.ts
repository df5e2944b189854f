import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import {
  answerOf,
  canonicalJson,
  idempotencyKeyOf,
  keyedRequest,
  operationFingerprint,
  requestFingerprint,
} from '../../src/handlers/idempotency.js';

describe("a generated create's keyed request", () => {
  const body = { petId: 1, quantity: 1 };

  it("fingerprints the operation with the body: another operation's, createPet's included, never matches", () => {
    expect(operationFingerprint('createStoreOrder', { quantity: 1, petId: 1 })).toBe(operationFingerprint('createStoreOrder', body));
    expect(operationFingerprint('createStoreOrder', body)).not.toBe(requestFingerprint(body));
    expect(operationFingerprint('createStoreOrder', body)).not.toBe(operationFingerprint('createPet', body));
  });

  it('takes the key from the header and keeps the record for the retention from now', () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    expect(keyedRequest('createStoreOrder', { header: '"k1"', body, accountId: 7, now }, 60)).toEqual({
      accountId: 7,
      key: 'k1',
      fingerprint: operationFingerprint('createStoreOrder', body),
      now,
      expiresAt: new Date('2030-01-01T00:01:00.000Z'),
    });
  });
});

describe('idempotencyKeyOf', () => {
  it.each([
    ['"abc"', 'abc'],
    ['abc', 'abc'],
    ['"a \\"quoted\\" \\\\ key"', 'a "quoted" \\ key'],
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ["!#$%&'*+-.^_`|~:/", "!#$%&'*+-.^_`|~:/"],
  ])('reads %s as the key %s', (header, key) => {
    expect(idempotencyKeyOf(header)).toBe(key);
  });
});

describe('canonicalJson and requestFingerprint', () => {
  it('sorts keys at every level by UTF-16 code units and leaves out white space and undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }, 2], é: true, Z: undefined })).toBe('{"a":[{"c":"x","d":null},2],"b":1,"é":true}');
    expect(canonicalJson({ '\u{1F600}': 1, '\uFFFF': 2 })).toBe('{"\u{1F600}":1,"\uFFFF":2}');
  });

  it('gives equal bodies the same fingerprint however they were written, and different ones different fingerprints', () => {
    const sent = JSON.parse('{ "categoryId" : 3.0, "name" : "R\\u0065x" }') as unknown;
    expect(requestFingerprint(sent)).toBe(requestFingerprint({ name: 'Rex', categoryId: 3 }));
    expect(requestFingerprint({ name: 'Rex', categoryId: 3 })).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(requestFingerprint({ name: 'Rex', categoryId: 4 })).not.toBe(requestFingerprint({ name: 'Rex', categoryId: 3 }));
    expect(requestFingerprint({ name: 'Rex', categoryId: 3, status: 'sold' })).not.toBe(requestFingerprint({ name: 'Rex', categoryId: 3 }));
  });
});

describe('answerOf', () => {
  const response = { status: 201, headers: { Location: '/v1/pets/1' }, body: Buffer.from('{}') };

  it('sends a created or replayed record as recorded, marking the replay', () => {
    expect(answerOf({ kind: 'created', response })).toEqual({ recorded: response, replayed: false });
    expect(answerOf({ kind: 'replayed', response })).toEqual({ recorded: response, replayed: true });
  });

  it.each([
    ['key_reused', 'idempotency_key_reused', 422],
    ['in_progress', 'idempotency_key_in_progress', 409],
  ] as const)('raises %s as %s (%i)', (kind, code, status) => {
    let raised: unknown;
    try {
      answerOf({ kind });
    } catch (error) {
      raised = error;
    }
    expect(raised).toBeInstanceOf(ApiError);
    expect(raised).toMatchObject({ code, status });
  });
});
