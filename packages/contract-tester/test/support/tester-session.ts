import { afterEach } from 'vitest';
import { petStoreDocument } from './pet-store.js';
import { ApiClient } from '../../src/http-client.js';
import type { TestRequest } from '../../src/requests.js';
import { ContractChecker } from '../../src/response-contract.js';
import { Session } from '../../src/session.js';
import { readApiModel } from '../../src/spec-model.js';
import type { TestApi } from './pet-store.js';

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

/** A contract tester's session against a test server, with its key; the listing audit records creates. */
export function testerSession(server: Pick<TestApi, 'origin' | 'key'>, key: string | undefined = server.key): Session {
  const document = petStoreDocument();
  const api = readApiModel(document);
  const client = new ApiClient(`${server.origin}${api.basePath}`, key);
  clients.push(client);
  return new Session(api, client, new ContractChecker(document), new Set(['createPet']));
}

export const operationOf = (session: Session, id: string) => session.api.operations.find((operation) => operation.id === id)!;

/** A GET of /v1/pets without credentials, with these parts changed. */
export function testRequest(parts: Partial<TestRequest>): TestRequest {
  return { method: 'GET', target: '/v1/pets', headers: [], credentials: { kind: 'none' }, ...parts };
}
