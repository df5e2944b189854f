import { describe, expect, it } from 'vitest';
import { ERROR_STATUSES } from '../../generated/contract.js';
import { loadContract } from '../../src/contract/contract.js';
import { ERROR_MESSAGES, errorMessage, errorStatus } from '../../src/errors/registry.js';

describe('the error registry', () => {
  it('has a message for exactly the codes of openapi.yaml, with the status the spec gives each', () => {
    const spec = loadContract().errorCodes;
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...spec.keys()].sort());
    for (const [code, status] of spec) expect(errorStatus(code)).toBe(status);
    expect(ERROR_STATUSES).toEqual(Object.fromEntries(spec));
  });

  it('fills a template from its parameters and keeps a fixed message as it is', () => {
    expect(errorMessage('pet_not_found', { petId: 7 })).toBe('No pet with id 7.');
    expect(errorMessage('method_not_allowed', { method: 'PUT', allow: '' })).toBe('PUT is not allowed here; use another method.');
    expect(errorMessage('internal_error', undefined)).toBe('The service failed to handle the request. Try again later.');
  });
});
