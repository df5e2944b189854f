import createClient, { type Middleware } from 'openapi-fetch';
import type { paths, PetStoreClient } from './api-types.js';
import { reportDeprecations, type DeprecationHandler } from './deprecation.js';
import { rethrowNetworkErrors } from './errors.js';

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
 * `client.POST('/pets', …)`. Calls resolve to `{ data, error, response }` for every HTTP status and
 * reject with PetStoreNetworkError when no response arrives.
 */
export function createPetStoreClient(options: PetStoreClientOptions): PetStoreClient {
  if (!options.apiKey) throw new TypeError('createPetStoreClient: apiKey is required');
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  client.use(bearer(options.apiKey), reportDeprecations(options.onDeprecation), rethrowNetworkErrors);
  return client;
}
