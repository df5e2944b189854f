import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { hashApiKey, looksLikeApiKey } from '../../auth/api-keys.js';
import { apiError } from '../../errors/api-error.js';
import type { Principal, Storage } from '../../storage/storage.js';
import { sentOnce } from '../raw-headers.js';
import { contextOf } from '../request-context.js';
import { clientKey } from '../rate-limits/client-address.js';
import type { FailedAuthLimit } from '../rate-limits/failed-auth-limit.js';

const AUTH_REALM = 'pet-store';

const BEARER = /^bearer +(\S+) *$/i;

/**
 * The client a request comes from, for the failed-authentication limit: Express's req.ip, which is
 * the socket's peer unless the app trusts proxies (TRUST_PROXY_HOPS), grouped by clientKey.
 */
function clientOf(req: Request): string {
  return clientKey(req.ip);
}

/**
 * Our own middleware rather than the validator's security check: the validator answers unknown
 * routes, wrong methods and body errors before it checks security, and every unauthenticated
 * request must get 401 first. Mount it before the body parser and the validator. With a
 * failed-authentication limit, an address that used it up gets 429 instead, without its key being
 * looked up (see FailedAuthLimit).
 */
export function authenticate(storage: Storage, failedAuth?: FailedAuthLimit): RequestHandler {
  /** A request whose key was not found: 429 once the address has used up its failures, else 401. */
  async function refuseUnknown(req: Request, res: Response, token: string | undefined): Promise<never> {
    const tooMany = await failedAuth?.recordFailure(clientOf(req), res);
    if (tooMany) throw tooMany;
    if (token === undefined) throw apiError('missing_api_key', undefined, { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}"` });
    throw apiError('invalid_api_key', undefined, {
      'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is unknown or revoked"`,
    });
  }
  function admit(
    req: Request,
    res: Response,
    next: NextFunction,
    token: string | undefined,
    hash: string | undefined,
    principal: Principal | undefined,
  ) {
    if (!principal) return refuseUnknown(req, res, token);
    failedAuth?.remember(hash!);
    contextOf(res).principal = principal;
    next();
  }
  // Not an async function: where the backend answers the lookup at once (SQLite), a request that
  // passes goes on without a promise or a microtask; a promise is returned only when one is needed.
  return (req, res, next) => {
    // Authorization sent twice is no key: the server and a proxy in front may each read another one.
    const header = sentOnce(req.rawHeaders, 'authorization') ? req.headers.authorization : undefined;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    // The shape check keeps garbage away from the database.
    const hash = token !== undefined && looksLikeApiKey(token) ? hashApiKey(token) : undefined;
    const refusal = failedAuth?.refuse(req, clientOf, hash, res);
    if (refusal) throw refusal;
    const found = hash === undefined ? undefined : storage.findActiveApiKey(hash);
    if (found instanceof Promise) return found.then((principal) => admit(req, res, next, token, hash, principal));
    return admit(req, res, next, token, hash, found);
  };
}
