import { placeKey, type Credential, type Header, type TestRequest } from '../generate/requests.js';
import type { OperationModel, SchemeModel, SecurityRequirement } from '../spec/model.js';

/** The prefix of every variable the tester names for a secret: never the API's own. */
export const VARIABLE_PREFIX = 'CONTRACT_TEST_';
export const API_KEY_VARIABLE = `${VARIABLE_PREFIX}API_KEY`;
export const AUTH_VARIABLE = `${VARIABLE_PREFIX}AUTH`;

export function variableName(kind: 'SECURITY' | 'HEADER', name: string): string {
  return `${VARIABLE_PREFIX}${kind}_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/** Headers a secret travels in, whatever the API: their values are printed as variables. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|key|token|secret|auth|session|password/i;

export interface CredentialOptions {
  /** `-H "Name: value"`, sent on every request. */
  headers?: Header[];
  /** `--auth user:password`, for HTTP basic schemes. */
  basic?: string;
  /** `--security NAME=VALUE`, per security scheme. */
  security?: Record<string, string>;
  /** `--api-key KEY`, for every bearer, OAuth2, OpenID Connect and apiKey scheme. */
  apiKey?: string;
}

/** The outcome of looking for credentials for an operation. */
export type Authentication =
  | { kind: 'none-needed' }
  | { kind: 'authenticated'; requirement: SecurityRequirement; credentials: Credential[] }
  | { kind: 'impossible'; reason: string };

function describe(requirement: SecurityRequirement): string {
  return requirement
    .map(
      ({ name, scheme }) =>
        `${name} (${scheme.type === 'http' ? `http ${scheme.scheme}` : scheme.type === 'apiKey' ? `apiKey in ${scheme.in} ${scheme.name}` : scheme.type})`,
    )
    .join(' + ');
}

/**
 * The credentials the tester holds (from the command line and the environment), and how they fill
 * an operation's security requirements: per operation, the first alternative it holds every scheme
 * of. The secrets themselves stay here, by variable.
 */
export class Credentials {
  /** Variable name to secret. */
  readonly secrets = new Map<string, string>();
  /** -H headers: the ones without a secret as they are, the others with a credential by variable. */
  readonly plainHeaders: Header[] = [];
  readonly secretHeaders: Credential[] = [];

  constructor(private readonly options: CredentialOptions = {}) {
    for (const header of options.headers ?? []) {
      if (SECRET_HEADER.test(header.name)) {
        const variable = variableName('HEADER', header.name);
        this.secrets.set(variable, header.value);
        this.secretHeaders.push({ scheme: '-H', place: 'header', name: header.name, prefix: '', variable });
      } else {
        this.plainHeaders.push(header);
      }
    }
    if (options.apiKey !== undefined) this.secrets.set(API_KEY_VARIABLE, options.apiKey);
    if (options.basic !== undefined) this.secrets.set(AUTH_VARIABLE, options.basic);
    for (const [name, value] of Object.entries(options.security ?? {})) this.secrets.set(variableName('SECURITY', name), value);
  }

  /** Whether any credential at all was given. */
  get any(): boolean {
    return this.secrets.size > 0;
  }

  private headerGiven(name: string): Credential | undefined {
    return this.secretHeaders.find((header) => header.name.toLowerCase() === name.toLowerCase());
  }

  /** How the tester fills one scheme, or undefined when it holds nothing for it. */
  private fill(name: string, scheme: SchemeModel): Credential | undefined {
    const given = this.options.security?.[name];
    const variable = given !== undefined ? variableName('SECURITY', name) : undefined;
    const bearer = (source: string | undefined): Credential | undefined =>
      source === undefined ? undefined : { scheme: name, place: 'header', name: 'Authorization', prefix: 'Bearer ', variable: source };
    if (scheme.type === 'http') {
      if (scheme.scheme === 'basic') {
        const source = variable ?? (this.options.basic !== undefined ? AUTH_VARIABLE : undefined);
        if (source) return { scheme: name, place: 'header', name: 'Authorization', prefix: 'Basic ', variable: source, basic: true };
      } else if (scheme.scheme === 'bearer') {
        const filled = bearer(variable ?? (this.options.apiKey !== undefined ? API_KEY_VARIABLE : undefined));
        if (filled) return filled;
      }
      // Authorization given with -H fills any http scheme whose name it starts with.
      const header = this.headerGiven('Authorization');
      const value = header && this.secrets.get(header.variable);
      if (header && value?.toLowerCase().startsWith(`${scheme.scheme} `)) return { ...header, scheme: name };
      return undefined;
    }
    if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      // A token obtained beforehand, sent as a bearer token (RFC 6750).
      return bearer(variable ?? (this.options.apiKey !== undefined ? API_KEY_VARIABLE : undefined)) ?? this.authorizationHeader(name);
    }
    if (scheme.type === 'apiKey') {
      const source = variable ?? (this.options.apiKey !== undefined ? API_KEY_VARIABLE : undefined);
      if (source) return { scheme: name, place: scheme.in, name: scheme.name, prefix: '', variable: source };
      const header = scheme.in === 'header' ? this.headerGiven(scheme.name) : undefined;
      return header && { ...header, scheme: name };
    }
    return undefined;
  }

  /** Authorization given with -H, when it carries a bearer token. */
  private authorizationHeader(name: string): Credential | undefined {
    const header = this.headerGiven('Authorization');
    return header && this.secrets.get(header.variable)?.toLowerCase().startsWith('bearer ') ? { ...header, scheme: name } : undefined;
  }

  /**
   * How to authenticate an operation: not needed, these credentials, or why the tester cannot.
   * `security` lists alternatives, any one of which will do, each the schemes it needs together:
   * the credentials are those of one alternative, the first the tester holds every scheme of.
   */
  forOperation(operation: OperationModel): Authentication {
    const { alternatives, optional } = operation.security;
    if (!alternatives.length) return { kind: 'none-needed' };
    const clashes: string[] = [];
    for (const requirement of alternatives) {
      const filled = requirement.map(({ name, scheme }) => this.fill(name, scheme));
      if (!filled.every((credential) => credential !== undefined)) continue;
      const credentials = onePerPlace(filled);
      if (credentials) return { kind: 'authenticated', requirement, credentials };
      clashes.push(describe(requirement));
    }
    if (optional) return { kind: 'none-needed' };
    const options = alternatives.map(describe).join(', or ');
    const clash = clashes.length ? ` (${clashes.join(', ')}: two values for one header, query parameter or cookie)` : '';
    return { kind: 'impossible', reason: `it needs ${options}${clash}; give --security NAME=VALUE (or --auth, --api-key, -H)` };
  }

  /**
   * Every place a credential of the operation's schemes could travel: what a request without valid
   * credentials must leave out, the -H headers included, so that no alternative scheme still
   * authenticates it.
   */
  credentialPlaces(operation: OperationModel): Array<{ place: 'header' | 'query' | 'cookie'; name: string }> {
    const places: Array<{ place: 'header' | 'query' | 'cookie'; name: string }> = this.secretHeaders.map(({ name }) => ({
      place: 'header' as const,
      name,
    }));
    for (const requirement of operation.security.alternatives) {
      for (const { scheme } of requirement) {
        if (scheme.type === 'apiKey') places.push({ place: scheme.in, name: scheme.name });
        else places.push({ place: 'header', name: 'Authorization' });
      }
    }
    return places;
  }

  /** The secret a credential sends after its prefix (base64 `user:password` for basic). */
  secretOf(credential: Credential): string | undefined {
    const secret = this.secrets.get(credential.variable);
    if (secret === undefined) return undefined;
    return credential.basic ? Buffer.from(secret, 'utf8').toString('base64') : secret;
  }
}

/**
 * One credential per place, where schemes of one requirement travel in the same one (Google's
 * documents require an implicit and an authorization-code OAuth2 scheme together: one bearer token
 * in one Authorization header satisfies both); undefined when two would need different values
 * there, which no request can send (RFC 9110 §5.3: Authorization is not a list).
 */
function onePerPlace(credentials: Credential[]): Credential[] | undefined {
  const kept = new Map<string, Credential>();
  for (const credential of credentials) {
    const key = placeKey(credential.place, credential.name);
    const there = kept.get(key);
    if (!there) kept.set(key, credential);
    else if (there.variable !== credential.variable || there.prefix !== credential.prefix || there.basic !== credential.basic)
      return undefined;
  }
  return [...kept.values()];
}

/** What a request's credentials add to it: headers, and query pairs (already encoded). */
export interface CredentialParts {
  headers: Header[];
  query: Array<[string, string]>;
}

/**
 * The headers and query pairs a request's credentials add, each secret written by `secret` (its
 * value when sending, a shell variable in a printed command) after the credential's prefix. The -H headers without a secret go on
 * every request the request does not already set; those with one go with valid credentials only.
 */
export function credentialParts(
  request: Pick<TestRequest, 'headers' | 'credentials'>,
  held: Credentials,
  secret: (credential: Credential) => string,
): CredentialParts {
  const parts: CredentialParts = { headers: [], query: [] };
  const setByRequest = new Set(request.headers.map(({ name }) => name.toLowerCase()));
  const { credentials } = request;
  const cookies: string[] = [];
  if (credentials.kind === 'valid') {
    for (const credential of credentials.credentials) {
      const value = credential.prefix + secret(credential);
      if (credential.place === 'header') parts.headers.push({ name: credential.name, value });
      else if (credential.place === 'query') parts.query.push([encodeURIComponent(credential.name), value]);
      else cookies.push(`${credential.name}=${value}`);
    }
    const carried = new Set(parts.headers.map(({ name }) => name.toLowerCase()));
    for (const header of held.secretHeaders) {
      if (!carried.has(header.name.toLowerCase()) && !setByRequest.has(header.name.toLowerCase())) {
        parts.headers.push({ name: header.name, value: header.prefix + secret(header) });
      }
    }
  } else if (credentials.kind === 'forged') {
    parts.headers.push(...credentials.headers);
    parts.query.push(...credentials.query);
  }
  for (const header of held.plainHeaders) {
    if (
      !setByRequest.has(header.name.toLowerCase()) &&
      !parts.headers.some(({ name }) => name.toLowerCase() === header.name.toLowerCase())
    ) {
      parts.headers.push(header);
    }
  }
  if (cookies.length) {
    const index = request.headers.findIndex(({ name }) => name.toLowerCase() === 'cookie');
    // One Cookie header (RFC 6265 §5.4): the request's own cookies and the credential's together.
    if (index >= 0) parts.headers.push({ name: 'Cookie', value: `${request.headers[index]!.value}; ${cookies.join('; ')}` });
    else parts.headers.push({ name: 'Cookie', value: cookies.join('; ') });
  }
  return parts;
}

/** The request's headers without the Cookie header a credential cookie is merged into. */
export function withoutMergedCookie(headers: Header[], parts: CredentialParts): Header[] {
  const merged = parts.headers.some(({ name }) => name.toLowerCase() === 'cookie');
  return merged ? headers.filter(({ name }) => name.toLowerCase() !== 'cookie') : headers;
}

/** The target with the credentials' query pairs appended. */
export function targetWith(target: string, query: Array<[string, string]>): string {
  if (!query.length) return target;
  return `${target}${target.includes('?') ? '&' : '?'}${query.map(([name, value]) => `${name}=${value}`).join('&')}`;
}
