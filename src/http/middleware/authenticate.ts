import type { RequestHandler } from 'express';
import { hashApiKey, looksLikeApiKey } from '../../auth/api-keys.js';
import { apiError } from '../../errors/api-error.js';
import type { Principal, Storage } from '../../storage/storage.js';

export const AUTH_REALM = 'pet-store';

/** What authentication leaves on `res.locals` for the operation adapter. */
export interface AuthenticatedLocals {
  principal: Principal;
}

const BEARER = /^bearer +(\S+) *$/i;

/**
 * Our own middleware rather than the validator's security check: the validator answers unknown
 * routes, wrong methods and body errors before it checks security, and every unauthenticated
 * request must get 401 first. Mount it before the body parser and the validator.
 */
export function authenticate(storage: Storage): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) throw apiError('missing_api_key', undefined, { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}"` });
    // The shape check keeps garbage away from the database.
    const principal = looksLikeApiKey(token) ? await storage.findActiveApiKey(hashApiKey(token)) : undefined;
    if (!principal) {
      throw apiError('invalid_api_key', undefined, {
        'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is unknown or revoked"`,
      });
    }
    (res.locals as AuthenticatedLocals).principal = principal;
    next();
  };
}
