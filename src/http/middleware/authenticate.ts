import type { Request, RequestHandler } from 'express';
import { hashApiKey, looksLikeApiKey } from '../../auth/api-keys.js';
import { apiError } from '../../errors/api-error.js';
import type { Storage } from '../../storage/storage.js';
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
  return async (req, res, next) => {
    // Authorization sent twice is no key: the server and a proxy in front may each read another one.
    const header = sentOnce(req.rawHeaders, 'authorization') ? req.headers.authorization : undefined;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    // The shape check keeps garbage away from the database.
    const hash = token !== undefined && looksLikeApiKey(token) ? hashApiKey(token) : undefined;
    const refusal = failedAuth?.refuse(req, clientOf, hash, res);
    if (refusal) throw refusal;
    const principal = hash === undefined ? undefined : await storage.findActiveApiKey(hash);
    if (!principal) {
      const tooMany = await failedAuth?.recordFailure(clientOf(req), res);
      if (tooMany) throw tooMany;
      if (token === undefined) throw apiError('missing_api_key', undefined, { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}"` });
      throw apiError('invalid_api_key', undefined, {
        'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is unknown or revoked"`,
      });
    }
    failedAuth?.remember(hash!);
    contextOf(res).principal = principal;
    next();
  };
}
