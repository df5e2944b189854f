import { describe, expect, it } from 'vitest';
import type { operations } from '../../generated/openapi.js';
import { createHandlers } from '../../src/handlers/index.js';
import type { OperationHandlers } from '../../src/handlers/operation.js';
import { adaptHandlers, PREDECESSOR_ADAPTERS, predecessorHandlers, type PredecessorAdapters } from '../../src/handlers/predecessor.js';
import { openTestStorage } from '../support/test-app.js';

async function handlers(): Promise<OperationHandlers> {
  return createHandlers({ storage: await openTestStorage(), basePath: '/v1' });
}

describe("the previous major version's handlers", () => {
  it("are this version's own while one version is served: no adapter is declared", async () => {
    const current = await handlers();
    expect(PREDECESSOR_ADAPTERS).toEqual({});
    expect(predecessorHandlers(current)).toEqual(current);
  });

  it("replace an operation's handler by its adapter, made from this version's handlers, and keep the others", async () => {
    const current = await handlers();
    const seen: unknown[] = [];
    const adapters: PredecessorAdapters<operations> = {
      listPets: (mine) => async (request) => {
        seen.push(request.query);
        return mine.listPets({ ...request, query: { ...request.query, limit: 1 } });
      },
    };
    const adapted = adaptHandlers(current, adapters);
    expect(adapted.getPet).toBe(current.getPet);
    expect(adapted.listPets).not.toBe(current.listPets);
    const request = {
      path: {},
      query: { limit: 20 },
      headers: {},
      body: undefined,
      principal: { keyId: 1, accountId: 1, accountName: 'a' },
      render: () => ({ status: 200, headers: {}, body: new Uint8Array() }),
    };
    await expect(adapted.listPets(request as never)).resolves.toEqual({ status: 200, body: [] });
    expect(seen).toEqual([{ limit: 20 }]);
  });
});
