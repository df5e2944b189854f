import { exactPathPattern, type OpenApiDocument, type OperationEntry } from './spec.js';

/** One security scheme of the document, as the server reads its credential; every one is backed by the same API keys. */
export type CredentialScheme =
  /** `Authorization: Bearer <key>`: HTTP bearer, and OAuth 2 and OpenID Connect, whose access tokens travel so. */
  | { name: string; kind: 'bearer' }
  /** `Authorization: Basic base64(account:key)`: the account's name and one of its keys. */
  | { name: string; kind: 'basic' }
  /** The key as the value of a header, a query parameter or a cookie. */
  | { name: string; kind: 'apiKey'; in: 'header' | 'query' | 'cookie'; parameter: string };

/** What a request must carry: any one alternative, each one or more schemes that must all be satisfied. */
export interface SecurityRequirements {
  alternatives: readonly (readonly CredentialScheme[])[];
  /** An empty requirement (`{}`, or `security: []`) is among them: the request may come without credentials. */
  open: boolean;
}

/** Where the security of a request is decided: per operation, and for requests no operation matches. */
export interface Security {
  /** One per operation, matched by the path relative to the base path and the method (HEAD as GET). */
  operations: readonly { pattern: RegExp; method: string; requirements: SecurityRequirements }[];
  /** For a request no operation matches: any alternative the document uses (so that 401 still comes first). */
  unmatched: SecurityRequirements;
  /** Whether every operation asks for the same: then no request needs matching. */
  uniform: boolean;
  /** The realm of every challenge: `x-auth-realm`, or the document's title. */
  realm: string;
  /** The query parameters that carry keys, never logged as sent. */
  queryParameters: readonly string[];
}

interface RawScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

function readScheme(name: string, raw: RawScheme | undefined): CredentialScheme {
  const where = `openapi.yaml: components.securitySchemes.${name}`;
  if (!raw) throw new Error(`${where} is used by a security requirement but not declared`);
  const scheme = raw.scheme?.toLowerCase();
  if (raw.type === 'http' && scheme === 'bearer') return { name, kind: 'bearer' };
  if (raw.type === 'http' && scheme === 'basic') return { name, kind: 'basic' };
  if (raw.type === 'oauth2' || raw.type === 'openIdConnect') return { name, kind: 'bearer' };
  if (raw.type === 'apiKey' && (raw.in === 'header' || raw.in === 'query' || raw.in === 'cookie') && raw.name)
    return { name, kind: 'apiKey', in: raw.in, parameter: raw.name };
  throw new Error(
    `${where}: the server authenticates HTTP bearer and basic, apiKey in a header, query or cookie, OAuth 2 and OpenID Connect bearer tokens; not ${JSON.stringify(raw)}`,
  );
}

function readRequirements(
  requirements: readonly Record<string, unknown>[] | undefined,
  schemes: Readonly<Record<string, RawScheme>>,
  read: Map<string, CredentialScheme>,
): SecurityRequirements {
  const schemeOf = (name: string) => {
    if (!read.has(name)) read.set(name, readScheme(name, schemes[name]));
    return read.get(name)!;
  };
  const all = (requirements ?? []).map((requirement) => Object.keys(requirement).map(schemeOf));
  const alternatives = all.filter((alternative) => alternative.length > 0);
  return { alternatives, open: alternatives.length < all.length || all.length === 0 };
}

/** What a realm may be: printable ASCII that needs no escaping inside a quoted string. */
const CHALLENGE_TEXT = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;

const key = ({ alternatives, open }: SecurityRequirements) => JSON.stringify([alternatives.map((a) => a.map((s) => s.name)), open]);

/**
 * Reads the document's security: each operation's `security`, or the root's where it has none
 * (`security: []` is open), with the schemes of `components.securitySchemes` they name. A scheme the
 * server cannot authenticate stops the start, naming it.
 */
export function readSecurity(document: OpenApiDocument, operations: readonly OperationEntry[]): Security {
  const schemes = (document.components['securitySchemes'] ?? {}) as Record<string, RawScheme>;
  const read = new Map<string, CredentialScheme>();
  const root = document['security'];
  const perOperation = operations.map(({ method, path, operation }) => ({
    pattern: exactPathPattern(path),
    method: method.toUpperCase(),
    requirements: readRequirements(operation['security'] ?? root, schemes, read),
  }));
  const distinct = new Map(perOperation.map(({ requirements }) => [key(requirements), requirements]));
  const everyAlternative = new Map(
    perOperation.flatMap(({ requirements }) => requirements.alternatives.map((alternative) => [JSON.stringify(alternative), alternative])),
  );
  const unmatched: SecurityRequirements =
    distinct.size === 1 ? [...distinct.values()][0]! : { alternatives: [...everyAlternative.values()], open: everyAlternative.size === 0 };
  const declared = document['x-auth-realm'];
  if (declared !== undefined && (typeof declared !== 'string' || !CHALLENGE_TEXT.test(declared)))
    throw new Error('openapi.yaml: x-auth-realm must be printable ASCII without quotes or backslashes: it is sent in challenges');
  // The title, less what a quoted challenge parameter cannot carry.
  const realm = declared ?? (document.info.title.replace(/[^\x20-\x7e]|["\\]/g, '') || 'api');
  return {
    operations: perOperation,
    unmatched,
    uniform: distinct.size <= 1,
    realm,
    queryParameters: [...read.values()].flatMap((scheme) => (scheme.kind === 'apiKey' && scheme.in === 'query' ? [scheme.parameter] : [])),
  };
}
