import type { RequestHandler } from 'express';
import { hashApiKey, looksLikeApiKey } from '../../auth/api-keys.js';
import type { Principal, Storage } from '../../storage/storage.js';
import { ApiError } from '../api-error.js';
import { whenReady } from '../when-ready.js';

export const AUTH_REALM = 'pet-store';

/** What authentication leaves for the handlers on `res.locals`. */
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
  return (req, res, next) => {
    const header = req.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) {
      throw new ApiError('missing_api_key', 'Send an API key as "Authorization: Bearer <API_KEY>".', {
        'WWW-Authenticate': `Bearer realm="${AUTH_REALM}"`,
      });
    }
    return whenReady(looksLikeApiKey(token) ? storage.findActiveApiKey(hashApiKey(token)) : undefined, (principal) => {
      if (!principal) {
        throw new ApiError('invalid_api_key', 'The API key is not valid: it is unknown or has been revoked.', {
          'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is unknown or revoked"`,
        });
      }
      (res.locals as AuthenticatedLocals).principal = principal;
      next();
    });
  };
}
