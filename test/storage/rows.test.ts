import { describe, expect, it } from 'vitest';
import { apiKeyFromRow, petFromRow, principalFromRow } from '../../src/storage/rows.js';

describe('rows, as both backends read them', () => {
  it('turn a pet row into a Pet, leaving a missing status absent rather than null', () => {
    expect(petFromRow([1, 'Rex', 3, 'sold'])).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' });
    const pet = petFromRow([2, 'Tom', 4, null]);
    expect(pet).toEqual({ id: 2, name: 'Tom', categoryId: 4 });
    expect('status' in pet).toBe(false);
  });

  it('turn key and principal rows into their records', () => {
    const row = {
      id: 5,
      account_id: 2,
      account_name: 'alice',
      display_prefix: 'psk_12345678',
      created_at: '2026-11-23T00:00:00.000Z',
      revoked_at: null,
    };
    expect(apiKeyFromRow(row)).toEqual({
      id: 5,
      accountId: 2,
      accountName: 'alice',
      displayPrefix: 'psk_12345678',
      createdAt: '2026-11-23T00:00:00.000Z',
      revokedAt: null,
    });
    expect(principalFromRow({ key_id: 5, account_id: 2, account_name: 'alice' })).toEqual({ keyId: 5, accountId: 2, accountName: 'alice' });
  });
});
