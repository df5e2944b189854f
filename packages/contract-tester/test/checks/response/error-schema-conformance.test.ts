import { describe, expect, it } from 'vitest';
import { errorBody, observed, petStoreChecker } from '../../support/observed-response.js';

describe('error_schema_conformance', () => {
  const checker = petStoreChecker();

  it('holds every error to the Error object and its code table', () => {
    expect(checker.violations(observed({ status: 400, body: errorBody(400, 'validation_failed') }))).toEqual([]);
    expect(checker.violations(observed({ status: 400, body: errorBody(404, 'validation_failed') }))).toEqual([
      'GET /v1/pets → 400: status 404 differs from the HTTP status',
    ]);
    expect(checker.violations(observed({ status: 400, body: errorBody(400, 'pet_not_found') }))).toEqual([
      'GET /v1/pets → 400: the spec gives code pet_not_found another status',
    ]);
    expect(checker.violations(observed({ status: 400, body: undefined, text: '', headers: { 'content-type': undefined } }))).toContain(
      'GET /v1/pets → 400: an error must be application/json',
    );
  });
});
