import type { Middleware } from 'openapi-fetch';
import type { PetStoreClient } from './api-types.js';
import type { ErrorBody, Order, OrderStatus, Pet, PetStatus } from './pet-store-types.js';
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

export interface ListAllStoreOrdersOptions {
  status?: OrderStatus;
  /** Orders per request, 1 to 100; the server's default (20) when omitted. */
  pageSize?: number;
  signal?: AbortSignal;
}

/** One page: the first (`next` undefined), or the one a rel="next" link names. */
type PageRequest<T> = (next: string | undefined) => Promise<{ data?: T[]; error?: ErrorBody; response: Response }>;

/**
 * Every item of a listing, in id order, one page at a time, following `Link: <…>; rel="next"` until
 * the last page. An error response is thrown as PetStoreApiError (an iterator has no other way to
 * return it), a failed connection as PetStoreNetworkError.
 */
async function* allPages<T>(page: PageRequest<T>): AsyncGenerator<T, void, undefined> {
  let next: string | undefined;
  do {
    const { data, error, response } = await page(next);
    if (data === undefined) throw new PetStoreApiError<ErrorBody>(error!, response);
    yield* data;
    next = findLink(response.headers.get('Link'), 'next')?.href;
  } while (next !== undefined);
}

/** Every pet, in id order (see allPages). */
export function listAllPets(client: PetStoreClient, options: ListAllPetsOptions = {}): AsyncGenerator<Pet, void, undefined> {
  const { status, pageSize, signal } = options;
  return allPages((next) =>
    next === undefined
      ? client.GET('/pets', { params: exactParams('listPets', { query: { status, limit: pageSize } }), signal })
      : client.GET('/pets', { middleware: [followLink(next)], signal }),
  );
}

/** Every store order, in id order (see allPages). */
export function listAllStoreOrders(
  client: PetStoreClient,
  options: ListAllStoreOrdersOptions = {},
): AsyncGenerator<Order, void, undefined> {
  const { status, pageSize, signal } = options;
  return allPages((next) =>
    next === undefined
      ? client.GET('/store/orders', { params: exactParams('listStoreOrders', { query: { status, limit: pageSize } }), signal })
      : client.GET('/store/orders', { middleware: [followLink(next)], signal }),
  );
}
