import type { Account, AccountApiKey, ApiKeyRecord, NewApiKey, Principal, RevokeResult } from '../api-keys.js';
import { apiKeyFromRow, principalFromRow, type ApiKeyRow, type PrincipalRow } from '../rows.js';
import type { Queries, Session } from './queries.js';
import { ANY_ACTIVE_KEY, ENSURE_ACCOUNT, FIND_ACTIVE_KEY, INSERT_KEY, LIST_KEYS, REVOKE_KEY } from './statements.js';

// The ApiKeyStore of the PostgreSQL backend, on any session: the pool's, or a transaction's.

/** Any constant works, as long as every process of this service uses the same one. */
const BOOTSTRAP_LOCK_KEY = 7_318_442_002;

export async function ensureAccount(session: Session, name: string): Promise<Account> {
  const [row] = await session.rows<{ id: number; name: string; created_at: string }>(ENSURE_ACCOUNT, [name]);
  return { id: row!.id, name: row!.name, createdAt: row!.created_at };
}

export async function createApiKey(session: Session, { accountId, hash, displayPrefix }: AccountApiKey): Promise<ApiKeyRecord> {
  const [row] = await session.rows<ApiKeyRow>(INSERT_KEY, [accountId, hash, displayPrefix]);
  return apiKeyFromRow(row!);
}

export async function findActiveApiKey(session: Session, hash: string): Promise<Principal | undefined> {
  const [row] = await session.rows<PrincipalRow>(FIND_ACTIVE_KEY, [hash]);
  return row && principalFromRow(row);
}

export async function listApiKeys(session: Session): Promise<ApiKeyRecord[]> {
  return (await session.rows<ApiKeyRow>(LIST_KEYS)).map(apiKeyFromRow);
}

export async function revokeApiKey(session: Session, id: number): Promise<RevokeResult> {
  const [row] = await session.rows<{ revoked_now: boolean }>(REVOKE_KEY, [id]);
  if (!row) return 'not_found';
  return row.revoked_now ? 'revoked' : 'already_revoked';
}

export async function hasActiveApiKey(session: Session): Promise<boolean> {
  return (await session.rows(ANY_ACTIVE_KEY)).length > 0;
}

/**
 * The check and the key in one transaction, under an advisory lock held to its end: processes
 * starting together check one after the other.
 */
export function createFirstApiKey(queries: Queries, { accountName, hash, displayPrefix }: NewApiKey): Promise<ApiKeyRecord | undefined> {
  return queries.transaction(`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`, async (session) => {
    if (await hasActiveApiKey(session)) return undefined;
    const account = await ensureAccount(session, accountName);
    return createApiKey(session, { accountId: account.id, hash, displayPrefix });
  });
}
