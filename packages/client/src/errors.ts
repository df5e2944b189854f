import type { Middleware } from 'openapi-fetch';

/**
 * The API answered with an error status. Client calls return such errors as `{ error, response }`;
 * only helpers that cannot return them (the `listAllPets` iterator) throw this instead.
 */
export class PetStoreApiError<Body = unknown> extends Error {
  override readonly name = 'PetStoreApiError';
  /** The HTTP status, equal to `error.status` for every error the API sends. */
  readonly status: number;

  constructor(
    /** The error body of the response, in the document's error format. */
    readonly error: Body,
    readonly response: Response,
  ) {
    const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
    super(
      `${response.status} ${typeof code === 'string' ? code : 'error'}: ${typeof message === 'string' ? message : response.statusText}`,
    );
    this.status = response.status;
  }
}

/**
 * No HTTP response arrived at all (connection refused or reset, DNS failure, TLS failure, …), so
 * there is no Error object to return. The runtime's own error is kept as `cause`.
 */
export class PetStoreNetworkError extends Error {
  override readonly name = 'PetStoreNetworkError';

  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${method} ${url} got no response: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * openapi-fetch lets fetch()'s rejection through as is, and runtimes disagree on its type (a
 * TypeError in Node, Deno and browsers, a plain Error in Bun), so every failure of the fetch call is
 * re-thrown as one class. An aborted request keeps its abort reason: the caller asked for it.
 */
export const rethrowNetworkErrors: Middleware = {
  onError({ request, error }) {
    if (request.signal.aborted) return undefined;
    return new PetStoreNetworkError(request.method, request.url, error);
  },
};
