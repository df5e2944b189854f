import { afterEach } from 'vitest';
import { ALL_CHECKS } from '../../src/registry/checks.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import type { TestRequest } from '../../src/generate/requests.js';
import type { Credential } from '../../src/generate/requests.js';
import { Credentials } from '../../src/http/credentials.js';
import { ApiClient } from '../../src/http/http-client.js';
import { Session } from '../../src/stateful/session.js';
import { readApiModel } from '../../src/spec/model.js';
import { PET_STORE_PROFILE, petStoreDocument, type TestApi } from './pet-store.js';

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

/** A contract tester's session against a pet store test server, with its key (none for '') and every check on (the house rules too). */
export function testerSession(server: Pick<TestApi, 'origin' | 'key'>, key: string = server.key): Session {
  const document = petStoreDocument();
  const api = readApiModel(document);
  const client = new ApiClient(`${server.origin}${api.basePath}`, new Credentials(key ? { apiKey: key } : {}));
  clients.push(client);
  return new Session(api, client, new ContractChecker(document, { profile: PET_STORE_PROFILE }), {
    checks: new Set(ALL_CHECKS),
    profile: PET_STORE_PROFILE,
  });
}

export const operationOf = (session: Session, id: string) => session.api.operations.find((operation) => operation.id === id)!;

/** A GET of /v1/pets without credentials, with these parts changed. */
export function testRequest(parts: Partial<TestRequest>): TestRequest {
  return { method: 'GET', target: '/v1/pets', headers: [], credentials: { kind: 'none' }, ...parts };
}

/** The pet store's bearer key, as a request carries it: by its variable. */
export const BEARER: Credential = {
  scheme: 'bearerAuth',
  place: 'header',
  name: 'Authorization',
  prefix: 'Bearer ',
  variable: 'CONTRACT_TEST_API_KEY',
};

/** The valid credentials of a pet store operation, as the session sends them. */
export const withKey = (session: Session, id: string) => session.credentialsFor(operationOf(session, id));
