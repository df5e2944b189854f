import { describe, expect, it } from 'vitest';
import { advisoryLockKey } from '../../../src/storage/postgres/idempotency.js';

describe('PostgreSQL Idempotency-Key locks', () => {
  it('locks each account and Idempotency-Key on its own int8, written as a literal', () => {
    const key = advisoryLockKey(1, 'k');
    expect(key).toMatch(/^-?\d{1,19}$/);
    expect(BigInt.asIntN(64, BigInt(key))).toBe(BigInt(key));
    expect(advisoryLockKey(1, 'k')).toBe(key);
    expect(new Set([key, advisoryLockKey(2, 'k'), advisoryLockKey(1, 'k2'), advisoryLockKey(11, ':k')]).size).toBe(4);
  });
});
