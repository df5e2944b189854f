import type { PetStoreClient } from './api-types.js';

/**
 * getPet: one animal by id, the openapi-fetch result `{ data, error, response }` as is.
 * @deprecated Use `listAllPets` (or `GET /pets` with the `status` filter) instead: getPet answers
 * `410` from its Sunset date, 2030-12-05T00:00:00Z. Each response carries `Deprecation`, `Sunset` and a
 * successor `Link`, which the client reports once through `onDeprecation`.
 */
export function getPet(client: PetStoreClient, petId: number, init: { signal?: AbortSignal } = {}) {
  return client.GET('/pets/{petId}', { ...init, params: { path: { petId } } });
}
