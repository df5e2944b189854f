import { expect } from 'vitest';
import { checkContract, type ObservedResponse } from './pet-store.js';

/**
 * A Node script (ESM) that drives the client, imported from `specifier`, through one scenario against a
 * real server, for the tests that load the client the way its users do (a copied bundle, an installed
 * package): it adds two pets, pages through them one at a time, is refused with a wrong key, and tries
 * to import openapi-fetch, which must not be needed. Run it as `node script.mjs BASE_URL API_KEY`; it
 * prints JSON, with every response it received, for checkClientScenario.
 */
export function clientScenarioScript(specifier: string): string {
  return `
import { createPetStoreClient, listAllPets, PetStoreApiError } from '${specifier}';

const [baseUrl, apiKey] = process.argv.slice(2);
const observed = [];
const recordingFetch = async (request) => {
  const response = await fetch(request);
  const { pathname, search } = new URL(request.url);
  observed.push({ method: request.method, url: pathname + search, status: response.status, headers: Object.fromEntries(response.headers), text: await response.clone().text() });
  return response;
};
const client = createPetStoreClient({ baseUrl, apiKey, fetch: recordingFetch, onDeprecation: () => {} });
const created = await client.POST('/pets', { body: { name: 'Bundled', categoryId: 1, status: 'sold' } });
await client.POST('/pets', { body: { name: 'Second', categoryId: 2 } });
const all = [];
for await (const pet of listAllPets(client, { pageSize: 1 })) all.push(pet);
const denied = await listAllPets(createPetStoreClient({ baseUrl, apiKey: 'psk_wrong', fetch: recordingFetch })).next().catch((error) => error);
const openapiFetchReachable = await import('openapi-fetch').then(() => true, () => false);
console.log(JSON.stringify({ created: created.data, all, denied: denied instanceof PetStoreApiError && denied.error, openapiFetchReachable, observed }));
`;
}

/** Checks what clientScenarioScript printed: the pets, the refusal, and every response against openapi.yaml. */
export function checkClientScenario(stdout: string): void {
  const result = JSON.parse(stdout) as {
    created: unknown;
    all: unknown[];
    denied: unknown;
    openapiFetchReachable: boolean;
    observed: Omit<ObservedResponse, 'body'>[];
  };
  expect(result.openapiFetchReachable).toBe(false);
  expect(result.created).toEqual({ id: 1, name: 'Bundled', categoryId: 1, status: 'sold' });
  expect(result.all).toEqual([result.created, { id: 2, name: 'Second', categoryId: 2 }]);
  expect(result.denied).toMatchObject({ code: 'invalid_api_key', status: 401 });
  expect(result.observed.map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
    'POST /v1/pets 201',
    'POST /v1/pets 201',
    'GET /v1/pets?limit=1 200',
    expect.stringMatching(/^GET \/v1\/pets\?limit=1&cursor=[A-Za-z0-9_-]+ 200$/),
    'GET /v1/pets 401',
  ]);
  for (const response of result.observed) checkContract({ ...response, body: JSON.parse(response.text) });
}
