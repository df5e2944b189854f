import fc from 'fast-check';
import { exactPathPattern } from '../spec/openapi.js';
import { operationsAt, type ApiModel, type OperationModel, type SecurityRequirement } from '../spec/model.js';
import type { NegativeCase } from './negative-requests.js';
import {
  buildRequest,
  placeKey,
  positiveParts,
  splitTarget,
  type Header,
  type PositiveOptions,
  type RequestCredentials,
  type TestRequest,
} from './requests.js';
import { keepWhere, makesValues } from './bounded-filter.js';
import { pick } from './valid-values.js';

/**
 * The methods a path answers by the spec: its operations' methods; with `headForGet`, HEAD wherever
 * GET is (RFC 9110 §9.3.2).
 */
export function allowedMethods(api: ApiModel, path: string, headForGet = false): string[] {
  const methods = operationsAt(api, path).map(({ method }) => method.toUpperCase());
  if (headForGet && methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return methods;
}

/**
 * Methods to try where the spec has no operation. HEAD is left out (a server answers it wherever
 * GET is), and OPTIONS (a server may answer it for any resource, RFC 9110 §9.3.7); CONNECT has no
 * place in an origin server's API.
 */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'];

export function disallowedMethods(api: ApiModel, path: string): string[] {
  const allowed = allowedMethods(api, path);
  return METHODS.filter((method) => !allowed.includes(method));
}

/** Requests with a method the path does not have (a valid request of one of its operations otherwise). */
export function wrongMethodCases(
  api: ApiModel,
  path: string,
  credentialsFor: (operation: OperationModel) => RequestCredentials,
  options: PositiveOptions = {},
): fc.Arbitrary<NegativeCase> | undefined {
  const methods = disallowedMethods(api, path);
  // The valid requests of the path's operations that can be made (one the tester cannot make is
  // left untested with its reason, and must not stop this scenario either).
  const valid = operationsAt(api, path)
    .map((operation) => positiveParts(operation, api.basePath, credentialsFor(operation), options))
    .filter((parts) => makesValues(parts));
  if (!methods.length || !valid.length) return undefined;
  const cases = fc.tuple(fc.oneof(...valid), pick(...methods)).map(([{ body, ...parts }, method]) => ({
    // A TRACE request must not have content (RFC 9110 §9.3.8).
    request: buildRequest({ ...parts, method, ...(body && method !== 'TRACE' ? { body } : {}) }),
    why: `${path} has no ${method} operation`,
  }));
  // `/v1/x:getIamPolicy` is also a `/v1/{name}`: a method that path template has is no wrong one.
  const others = api.operations.filter((operation) => operation.path !== path && methods.includes(operation.method.toUpperCase()));
  if (!others.length) return cases;
  const unshadowed = keepWhere(
    cases,
    ({ request }) => {
      const below = splitTarget(request.target)[0].slice(api.basePath.length);
      return !others.some((operation) => operation.method.toUpperCase() === request.method && exactPathPattern(operation.path).test(below));
    },
    `a request of ${path} that no other path of the spec takes with its method`,
  );
  // Every method it lacks may be another path's: nothing to try.
  return makesValues(unshadowed) ? unshadowed : undefined;
}

type PathChange = 'trailing slash' | 'upper case' | 'doubled slash' | 'extra segment' | 'base path case';

function changePath(path: string, basePath: string, change: PathChange, at: number): string {
  const rest = path.slice(basePath.length);
  switch (change) {
    case 'trailing slash':
      return `${path}/`;
    case 'doubled slash':
      return `${basePath}/${rest}`;
    case 'extra segment':
      return `${path}/x`;
    case 'base path case':
      return basePath.toUpperCase() + rest;
    case 'upper case': {
      const letters = [...rest.matchAll(/[a-z]/g)].map((match) => match.index);
      if (!letters.length) return `${path}/`;
      const index = letters[at % letters.length]!;
      return basePath + rest.slice(0, index) + rest.charAt(index).toUpperCase() + rest.slice(index + 1);
    }
  }
}

/**
 * Paths the spec does not have, made from a valid request's: a trailing slash, a letter in another
 * case, a doubled slash, one segment more (paths are case-sensitive, RFC 3986 §6.2.2.1, and the spec
 * spells each once). With `keepBasePath`, only changes below the base path.
 */
export function unknownPathCases(
  api: ApiModel,
  operation: OperationModel,
  credentials: RequestCredentials,
  keepBasePath = false,
  options: PositiveOptions = {},
): fc.Arbitrary<NegativeCase> {
  const changes: PathChange[] = ['trailing slash', 'upper case', 'doubled slash', 'extra segment'];
  if (!keepBasePath && /[a-z]/.test(api.basePath)) changes.push('base path case');
  return fc.tuple(positiveParts(operation, api.basePath, credentials, options), pick(...changes), fc.nat()).map(([parts, change, at]) => {
    const request = buildRequest(parts);
    const [path, query] = splitTarget(request.target);
    const changed = changePath(path, api.basePath, change, at);
    const below = changed.slice(api.basePath.length);
    const known = changed.startsWith(api.basePath) && api.operations.some(({ path: template }) => exactPathPattern(template).test(below));
    // A change that lands on another path of the spec is not an unknown path: add a segment instead.
    const target = known ? `${path}/x` : changed;
    return {
      request: { ...request, target: query === undefined ? target : `${target}?${query}` },
      why: `${target} is not a path of the spec (${change})`,
    };
  });
}

const TOKEN_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A made-up secret: URL-safe characters, as long as a 256-bit key written in base64url. */
const madeUpSecret = fc.string({ unit: fc.constantFrom(...TOKEN_CHARACTERS), minLength: 43, maxLength: 43 });

export interface ForgeOptions {
  /** A prefix forged bearer tokens start with, so that they look like the API's own (a profile's). */
  tokenPrefix?: string;
  /** Malformed Authorization values too (`Bearer` with no token, another scheme). */
  malformed?: boolean;
}

/**
 * Credentials that are not valid, for one security requirement: none at all, or each of its
 * schemes filled with a secret the server never issued (a bearer token, a user and password, an
 * API key where the scheme puts it). Nothing else authenticates the request: no -H header with a
 * secret, no other scheme.
 */
export function invalidCredentials(
  requirements: SecurityRequirement[],
  options: ForgeOptions = {},
): fc.Arbitrary<{ credentials: RequestCredentials; why: string }> {
  const choices: fc.Arbitrary<{ credentials: RequestCredentials; why: string }>[] = [
    fc.constant({ credentials: { kind: 'none' }, why: 'no credentials' }),
  ];
  const forged = (headers: Header[], query: Array<[string, string]>, why: string) => ({
    credentials: { kind: 'forged' as const, headers, query },
    why,
  });
  for (const requirement of requirements) {
    choices.push(
      fc.tuple(...requirement.map(() => madeUpSecret)).map((secrets) => {
        const headers: Header[] = [];
        const query: Array<[string, string]> = [];
        // Schemes that travel in one place (two OAuth2 flows, one Authorization header) get one value there.
        const places = new Set<string>();
        requirement.forEach(({ scheme }, index) => {
          const secret = secrets[index]!;
          const place = scheme.type === 'apiKey' ? placeKey(scheme.in, scheme.name) : placeKey('header', 'Authorization');
          if (places.has(place)) return;
          places.add(place);
          if (scheme.type === 'apiKey') {
            if (scheme.in === 'header') headers.push({ name: scheme.name, value: secret });
            else if (scheme.in === 'query') query.push([encodeURIComponent(scheme.name), secret]);
            else headers.push({ name: 'Cookie', value: `${scheme.name}=${secret}` });
          } else if (scheme.type === 'http' && scheme.scheme === 'basic') {
            headers.push({ name: 'Authorization', value: `Basic ${Buffer.from(`contract-test:${secret}`).toString('base64')}` });
          } else {
            headers.push({ name: 'Authorization', value: `Bearer ${options.tokenPrefix ?? ''}${secret}` });
          }
        });
        return forged(headers, query, `credentials the server never issued (${requirement.map(({ name }) => name).join(' + ')})`);
      }),
    );
    if (options.malformed && requirement.some(({ scheme }) => scheme.type !== 'apiKey')) {
      choices.push(
        pick('Bearer', 'Bearer ', 'Bearer x', 'Basic dXNlcjpwYXNzd29yZA==', 'Token abc', 'bearer').map((value) =>
          forged([{ name: 'Authorization', value }], [], `Authorization: ${value}`),
        ),
      );
    }
  }
  return fc.oneof(...choices);
}

/** A request of any kind for the operation (valid or not), sent without valid credentials. */
export function withoutValidCredentials(
  operation: OperationModel,
  requests: fc.Arbitrary<NegativeCase>,
  options: ForgeOptions = {},
): fc.Arbitrary<NegativeCase> {
  return fc
    .tuple(requests, invalidCredentials(operation.security.alternatives, options))
    .map(([{ request, why }, { credentials, why: missing }]) => {
      const unauthenticated: TestRequest = { ...request, credentials };
      return { request: unauthenticated, why: `${missing}; the request otherwise: ${why}` };
    });
}
