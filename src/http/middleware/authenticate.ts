import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { hashApiKey, looksLikeApiKey } from '../../auth/api-keys.js';
import type { CredentialScheme, Security, SecurityRequirements } from '../../contract/security.js';
import { apiError } from '../../errors/api-error.js';
import type { Principal, Storage } from '../../storage/storage.js';
import { contextOf } from '../request-context.js';
import { clientKey } from '../rate-limits/client-address.js';
import type { FailedAuthLimit } from '../rate-limits/failed-auth-limit.js';
import { credentialOf, type Credential } from './credentials.js';

/**
 * The client a request comes from, for the failed-authentication limit: Express's req.ip, which is
 * the socket's peer unless the app trusts proxies (TRUST_PROXY_HOPS), grouped by clientKey.
 */
function clientOf(req: Request): string {
  return clientKey(req.ip);
}

/** How a scheme's credential is sent, for the message of a request without one. */
function howToSend(scheme: CredentialScheme): string {
  switch (scheme.kind) {
    case 'bearer':
      return '"Authorization: Bearer <API_KEY>"';
    case 'basic':
      return '"Authorization: Basic <base64 of ACCOUNT:API_KEY>"';
    case 'apiKey':
      return scheme.in === 'header'
        ? `"${scheme.parameter}: <API_KEY>"`
        : `the ${scheme.in === 'query' ? 'query parameter' : 'cookie'} "${scheme.parameter}"`;
  }
}

/**
 * The challenge of each scheme accepted, for WWW-Authenticate (RFC 9110 §11.6.1): Bearer (RFC 6750,
 * with invalid_token where a key was sent and refused) and Basic (RFC 7617); an apiKey scheme has no
 * registered one, so it names where the key goes.
 */
function challenges(requirements: SecurityRequirements, realm: string, invalid: boolean): string {
  const seen = new Set<string>();
  const each: string[] = [];
  for (const scheme of requirements.alternatives.flat()) {
    const challenge =
      scheme.kind === 'bearer'
        ? `Bearer realm="${realm}"${invalid ? ', error="invalid_token", error_description="The API key is unknown or revoked"' : ''}`
        : scheme.kind === 'basic'
          ? `Basic realm="${realm}", charset="UTF-8"`
          : `ApiKey realm="${realm}", in="${scheme.in}", name="${scheme.parameter}"`;
    if (!seen.has(challenge)) each.push(challenge);
    seen.add(challenge);
  }
  return each.join(', ');
}

/** The security of the request's operation (HEAD as GET), or that of requests no operation matches. */
function requirementsOf(security: Security, req: Request): SecurityRequirements {
  if (security.uniform) return security.unmatched;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  return security.operations.find((entry) => entry.method === method && entry.pattern.test(req.path))?.requirements ?? security.unmatched;
}

/** A key's lookup: its principal at once where the backend answers at once (SQLite), else a promise of it. */
type Lookup = Principal | undefined | Promise<Principal | undefined>;

/**
 * Our own middleware rather than the validator's security check: the validator answers unknown
 * routes, wrong methods and body errors before it checks security, and every unauthenticated
 * request must get 401 first. Mount it before the body parser and the validator. Each operation
 * takes what its `security` says (contract/security.ts): any one alternative, every scheme of it
 * satisfied, each scheme's credential a valid API key; keys are looked up by their SHA-256 hash
 * only, so no comparison of secrets can leak their bytes through timing. With a failed-authentication
 * limit, an address that used it up gets 429 instead, without its key being looked up (see
 * FailedAuthLimit).
 */
export function authenticate(storage: Storage, security: Security, failedAuth?: FailedAuthLimit): RequestHandler {
  const { realm } = security;
  /** A request whose credentials were not all found: 429 once the address has used up its failures, else 401. */
  async function refuse(req: Request, res: Response, requirements: SecurityRequirements, presented: boolean): Promise<never> {
    const tooMany = await failedAuth?.recordFailure(clientOf(req), res);
    if (tooMany) throw tooMany;
    const header = { 'WWW-Authenticate': challenges(requirements, realm, presented) };
    if (!presented) {
      const how = requirements.alternatives.map((alternative) => alternative.map(howToSend).join(' and ')).join(' or ');
      throw apiError('missing_api_key', { how }, header);
    }
    throw apiError('invalid_api_key', undefined, header);
  }

  /** The principal of an alternative whose lookups all found a key (of the named account), else undefined. */
  function principalOf(found: readonly (Principal | undefined)[], credentials: readonly Credential[]): Principal | undefined {
    const admitted = found.every(
      (principal, i) => principal && (credentials[i]!.account ?? principal.accountName) === principal.accountName,
    );
    return admitted ? found[0] : undefined;
  }

  // Not an async function: where the backend answers the lookup at once (SQLite), a request that
  // passes goes on without a promise or a microtask; a promise is returned only when one is needed.
  return (req, res, next: NextFunction) => {
    const requirements = requirementsOf(security, req);
    if (requirements.open && requirements.alternatives.length === 0) return next();
    let presented = false;
    const candidates: { credentials: Credential[]; hashes: string[] }[] = [];
    for (const alternative of requirements.alternatives) {
      const credentials = alternative.map((scheme) => credentialOf(req, scheme));
      presented ||= credentials.some((credential) => credential !== undefined);
      if (credentials.every((credential) => credential !== undefined)) {
        // The shape check keeps garbage away from the database: a malformed key is a refused one.
        const hashes = credentials.map(({ key }) => (looksLikeApiKey(key) ? hashApiKey(key) : ''));
        candidates.push({ credentials, hashes });
      }
    }
    const refusal = failedAuth?.refuse(req, clientOf, candidates[0]?.hashes[0] || undefined, res);
    if (refusal) throw refusal;
    if (candidates.length === 0 && requirements.open) return next();

    const admit = (principal: Principal | undefined, hashes: readonly string[]) => {
      if (!principal) return undefined;
      for (const hash of hashes) failedAuth?.remember(hash);
      contextOf(res).principal = principal;
      next();
      return principal;
    };
    const lookups: Lookup[][] = candidates.map(({ hashes }) => hashes.map((hash) => (hash ? storage.findActiveApiKey(hash) : undefined)));
    if (lookups.flat().some((lookup) => lookup instanceof Promise)) {
      return (async () => {
        for (const [i, { credentials, hashes }] of candidates.entries()) {
          if (admit(principalOf(await Promise.all(lookups[i]!.map(async (lookup) => lookup)), credentials), hashes)) return;
        }
        await refuse(req, res, requirements, presented);
      })();
    }
    for (const [i, { credentials, hashes }] of candidates.entries()) {
      if (admit(principalOf(lookups[i] as (Principal | undefined)[], credentials), hashes)) return;
    }
    return refuse(req, res, requirements, presented);
  };
}
