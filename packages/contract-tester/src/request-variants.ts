import fc from 'fast-check';
import { exactPathPattern } from './openapi.js';
import { pick } from './valid-values.js';
import type { NegativeCase } from './negative-requests.js';
import { buildRequest, positiveParts, type Credentials, type PositiveOptions, type TestRequest } from './requests.js';
import { operationsAt, type ApiModel, type CredentialScheme, type OperationModel } from './spec-model.js';

/** The methods a path answers by the spec: its operations' methods, and HEAD wherever GET is (RFC 9110 §9.3.2). */
export function allowedMethods(api: ApiModel, path: string): string[] {
  const methods = operationsAt(api, path).map(({ method }) => method.toUpperCase());
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return methods;
}

/**
 * Methods to try where the spec has no operation. OPTIONS is left out: a server may answer it for
 * any resource (RFC 9110 §9.3.7). CONNECT has no place in an origin server's API.
 */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'];

export function disallowedMethods(api: ApiModel, path: string): string[] {
  const allowed = allowedMethods(api, path);
  return METHODS.filter((method) => !allowed.includes(method));
}

/** Requests with a method the path does not have (a valid request of one of its operations otherwise). */
export function wrongMethodCases(api: ApiModel, path: string, options: PositiveOptions = {}): fc.Arbitrary<NegativeCase> | undefined {
  const methods = disallowedMethods(api, path);
  const operations = operationsAt(api, path);
  if (!methods.length || !operations.length) return undefined;
  return fc
    .tuple(fc.oneof(...operations.map((operation) => positiveParts(operation, api.basePath, options))), pick(...methods))
    .map(([{ body, ...parts }, method]) => ({
      // A TRACE request must not have content (RFC 9110 §9.3.8).
      request: buildRequest({ ...parts, method, ...(body && method !== 'TRACE' ? { body } : {}) }),
      why: `${path} has no ${method} operation`,
    }));
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
  keepBasePath = false,
  options: PositiveOptions = {},
): fc.Arbitrary<NegativeCase> {
  const changes: PathChange[] = ['trailing slash', 'upper case', 'doubled slash', 'extra segment'];
  if (!keepBasePath && /[a-z]/.test(api.basePath)) changes.push('base path case');
  return fc.tuple(positiveParts(operation, api.basePath, options), pick(...changes), fc.nat()).map(([parts, change, at]) => {
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

export function splitTarget(target: string): [string, string | undefined] {
  const index = target.indexOf('?');
  return index < 0 ? [target, undefined] : [target.slice(0, index), target.slice(index + 1)];
}

/** Credentials that are not valid: none, an empty or unknown key, the wrong scheme. */
export function invalidCredentials(schemes: CredentialScheme[]): fc.Arbitrary<{ credentials: Credentials; why: string }> {
  const options: fc.Arbitrary<{ credentials: Credentials; why: string }>[] = [
    fc.constant({ credentials: { kind: 'none' }, why: 'no credentials' }),
  ];
  const token = fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    minLength: 43,
    maxLength: 43,
  });
  for (const scheme of schemes) {
    const header = (name: string, value: string, why: string) => ({
      credentials: { kind: 'headers', headers: [{ name, value }] } as Credentials,
      why,
    });
    if (scheme.type === 'bearer') {
      options.push(
        token.map((secret) => header('Authorization', `Bearer psk_${secret}`, 'a key the server never issued')),
        pick('Bearer', 'Bearer ', 'Bearer x', 'Basic dXNlcjpwYXNzd29yZA==', 'Token abc', 'bearer').map((value) =>
          header('Authorization', value, `Authorization: ${value}`),
        ),
      );
    } else if (scheme.in === 'header') {
      options.push(token.map((secret) => header(scheme.name, secret, `${scheme.name}: a key the server never issued`)));
    }
  }
  return fc.oneof(...options);
}

/** A request of any kind for the operation (valid or not), sent without valid credentials. */
export function withoutValidCredentials(operation: OperationModel, requests: fc.Arbitrary<NegativeCase>): fc.Arbitrary<NegativeCase> {
  return fc.tuple(requests, invalidCredentials(operation.credentials)).map(([{ request, why }, { credentials, why: missing }]) => {
    const unauthenticated: TestRequest = { ...request, credentials };
    return { request: unauthenticated, why: `${missing}; the request otherwise: ${why}` };
  });
}
