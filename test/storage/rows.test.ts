import { describe, expect, it } from 'vitest';
import { apiKeyFromRow, principalFromRow } from '../../src/storage/rows.js';

describe('rows, as both backends read them', () => {
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
