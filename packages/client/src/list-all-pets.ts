import type { Middleware } from 'openapi-fetch';
import type { Pet, PetStatus, PetStoreClient } from './api-types.js';
import { PetStoreApiError } from './errors.js';
import { exactParams } from './exact-params.js';
import { findLink } from 'web-linking';

export interface ListAllPetsOptions {
  status?: PetStatus;
  /** Pets per request, 1 to 100; the server's default (20) when omitted. */
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * Sends this one request to the `rel="next"` target instead, unchanged, as the spec asks. The
 * target is path-absolute, so it resolves against the origin of the URL the client built; one that
 * names another origin is refused, as following it would send the API key there.
 */
function followLink(href: string): Middleware {
  return {
    onRequest({ request }) {
      const target = new URL(href, request.url);
      if (target.origin !== new URL(request.url).origin) {
        throw new Error(`refusing to follow a next link to another origin: ${target.href}`);
      }
      return new Request(target, { method: request.method, headers: request.headers, signal: request.signal });
    },
  };
}

/**
 * Every pet, in id order, one page at a time, following `Link: <…>; rel="next"` until the last page.
 * An error response is thrown as PetStoreApiError (an iterator has no other way to return it), a
 * failed connection as PetStoreNetworkError.
 */
export async function* listAllPets(client: PetStoreClient, options: ListAllPetsOptions = {}): AsyncGenerator<Pet, void, undefined> {
  const { status, pageSize, signal } = options;
  let next: string | undefined;
  do {
    const { data, error, response } =
      next === undefined
        ? await client.GET('/pets', { params: exactParams('listPets', { query: { status, limit: pageSize } }), signal })
        : await client.GET('/pets', { middleware: [followLink(next)], signal });
    if (data === undefined) throw new PetStoreApiError(error, response);
    yield* data;
    next = findLink(response.headers.get('Link'), 'next')?.href;
  } while (next !== undefined);
}
