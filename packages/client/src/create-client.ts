import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths, PetStoreClient } from './api-types.js';
import { reportDeprecations, type DeprecationHandler } from './deprecation.js';
import { rethrowNetworkErrors } from './errors.js';
import { idempotencyKeys } from './idempotency-key.js';
import { retryingFetch, retryPolicy, type RetryOptions } from './retry.js';

export interface PetStoreClientOptions {
  /** The API's base URL including its base path, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** A key from `npm run keys -- create`, sent as `Authorization: Bearer <apiKey>` on every call. */
  apiKey: string;
  /** Replaces `globalThis.fetch`, e.g. to add logging or to test. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Hears once per operation when a response says the operation is deprecated (Deprecation/Sunset
   * headers). Defaults to one console.warn per operation per process.
   */
  onDeprecation?: DeprecationHandler;
  /**
   * Retries of calls that are safe to repeat after a network failure, a 409 or a 503: those that
   * carry an `Idempotency-Key` (every createPet: the client gives each call a random key unless the
   * caller sends one), and conditional writes (updatePet, deletePet with `ifMatch` other than `*`).
   * Defaults to 5 attempts in all, waits of up to 100 ms doubling up to 5 s; `false` sends once.
   */
  retries?: RetryOptions | false;
}

function bearer(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return undefined;
    },
  };
}

/**
 * The openapi-fetch client for this API, typed from openapi.yaml: `client.GET('/pets', …)`,
 * `client.POST('/pets', …)`, `client.PATCH('/pets/{petId}', …)`, `client.DELETE(…)`. Calls resolve to `{ data, error, response }` for every HTTP status and
 * reject with PetStoreNetworkError when no response arrives (after the retries, for createPet).
 */
export function createPetStoreClient(options: PetStoreClientOptions): PetStoreClient;
/**
 * A client typed from another major version's paths, for its base URL: while a previous major
 * version is served beside this one, `createPetStoreClient<PreviousPaths>({ baseUrl: '…/v1', … })`
 * (docs/versioning.md#serving-two-major-versions).
 */
export function createPetStoreClient<Paths extends object>(options: PetStoreClientOptions): Client<Paths>;
export function createPetStoreClient(options: PetStoreClientOptions): Client<paths> {
  if (!options.apiKey) throw new TypeError('createPetStoreClient: apiKey is required');
  const fetch = options.fetch ?? ((request: Request, init?: RequestInit) => globalThis.fetch(request, init));
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch(fetch, retryPolicy(options.retries)) });
  client.use(bearer(options.apiKey), idempotencyKeys, reportDeprecations(options.onDeprecation), rethrowNetworkErrors);
  return client;
}
