import { describe, expect, it } from 'vitest';
import { guarded, isUnavailable } from '../../../src/storage/postgres/unavailable.js';
import { StorageUnavailableError } from '../../../src/storage/storage.js';

describe('an unreachable PostgreSQL database', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, true],
    [{ code: '57P01' }, true],
    [{ code: '08006' }, true],
    [{ message: 'Connection terminated unexpectedly' }, true],
    [{ message: 'timeout exceeded when trying to connect' }, true],
    [{ code: '23505' }, false],
    [{ code: '42P01' }, false],
    [new Error('boom'), false],
  ])('classifies %j as unavailable: %s', (error, expected) => {
    expect(isUnavailable(error)).toBe(expected);
  });

  it('surfaces as StorageUnavailableError, with the error as its cause; any other error as it is', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const thrown = await guarded(() => Promise.reject(refused)).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(StorageUnavailableError);
    expect((thrown as Error).cause).toBe(refused);
    const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(guarded(() => Promise.reject(duplicate))).rejects.toBe(duplicate);
    expect(await guarded(() => Promise.resolve(7))).toBe(7);
  });
});
