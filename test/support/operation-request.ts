import type { OperationId, OperationRequest, RecordedResponse } from '../../src/handlers/operation.js';
import type { Principal } from '../../src/storage/storage.js';

export const PRINCIPAL: Principal = { keyId: 1, accountId: 1, accountName: 'tester' };

/** Renders a result as JSON.stringify writes its body (the adapter uses the spec's serialisers). */
export function renderAsJson(result: { status: number; body?: unknown; headers?: Record<string, string | undefined> }): RecordedResponse {
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const body = result.body === undefined ? new Uint8Array(0) : Buffer.from(JSON.stringify(result.body));
  return { status: result.status, headers, body };
}

/** A handler's request as the adapter would build it, for unit tests that run without Express. */
export function operationRequest<K extends OperationId>(parts: Partial<OperationRequest<K>>): OperationRequest<K> {
  return { path: {}, query: {}, headers: {}, body: undefined, principal: PRINCIPAL, render: renderAsJson, ...parts } as OperationRequest<K>;
}
