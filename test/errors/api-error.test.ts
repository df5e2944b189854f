import { describe, expect, it } from 'vitest';
import { ApiError, apiError, isApiError } from '../../src/errors/api-error.js';

describe('ApiError', () => {
  it('is made from the registry: the code, its status and its message, and headers that travel with it', () => {
    const error = apiError('method_not_allowed', { method: 'DELETE', allow: 'GET' }, { Allow: 'GET' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.toBody()).toEqual({ code: 'method_not_allowed', status: 405, message: 'DELETE is not allowed here; use GET.' });
    expect(error.headers).toEqual({ Allow: 'GET' });
  });

  it('is told from other errors by isApiError', () => {
    expect(isApiError(apiError('internal_error'))).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError({ code: 'internal_error', status: 500 })).toBe(false);
  });
});
