// The tester's own reading of an OpenAPI document: it depends on no API it tests, so it shares no
// code with any server, which reads its spec with a module of its own.

/** The parts of an OpenAPI 3.0 or 3.1 document the tester reads; everything else passes through untyped. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: Array<{ url: string; description?: string; variables?: Record<string, { default: string }> }>;
  paths: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, unknown>>;
  tags?: Array<{ name: string }>;
  components: { schemas: Record<string, SchemaObject> } & Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

export interface SchemaObject {
  [keyword: string]: unknown;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: Array<Record<string, unknown>>;
  [extension: `x-${string}`]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  method: HttpMethod;
  /** Path template as written in the spec, e.g. /pets/{petId}. */
  path: string;
  operation: OperationObject;
  /** Its operationId, or `METHOD /path` when it has none. */
  id: string;
  /** The JSON pointer of the operation object: /paths/~1pets/get. */
  pointer: string;
  /** The path item's own parameters (shared by its operations). */
  pathParameters: unknown[];
}

/** The path item at a path, after a `$ref` to another one. */
function pathItem(document: OpenApiDocument, path: string): Record<string, unknown> {
  return resolveRef(document, document.paths[path] ?? {});
}

export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const path of Object.keys(document.paths ?? {})) {
    const item = pathItem(document, path);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation || typeof operation !== 'object') continue;
      entries.push({
        method,
        path,
        operation,
        id: operation.operationId ?? `${method.toUpperCase()} ${path}`,
        pointer: `/paths/${escapePointerToken(path)}/${method}`,
        pathParameters: (item['parameters'] as unknown[] | undefined) ?? [],
      });
    }
  }
  return entries;
}

/**
 * The base path shared by every server URL (`/v1`). Server URLs may differ in host (and its
 * variables) but must agree on the path, since one process serves one version.
 */
export function basePathOf(document: OpenApiDocument): string {
  const paths = new Set(
    (document.servers?.length ? document.servers : [{ url: '/' }]).map(({ url }) => {
      const withoutVariables = url.replace(/\{[^}]+\}/g, 'host');
      return new URL(withoutVariables, 'http://host').pathname.replace(/\/$/, '');
    }),
  );
  // Servers that disagree: the deployment's own base URL decides (the runner always sets it).
  return paths.size === 1 ? [...paths][0]! : '';
}

function templateSource(template: string, capture = false): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? (capture ? '([^/]+)' : '[^/]+') : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
}

/**
 * Matches a concrete path against a path template spelt exactly: paths are case-sensitive
 * (RFC 3986 §6.2.2.1) and the spec spells each once, without a trailing slash.
 */
export function exactPathPattern(template: string): RegExp {
  return new RegExp(`^${templateSource(template)}$`);
}

/** The path parameters of a concrete path spelt as the template (values percent-decoded), or undefined. */
export function matchPathTemplate(template: string, path: string): Record<string, string> | undefined {
  const match = new RegExp(`^${templateSource(template, true)}$`).exec(path);
  if (!match) return undefined;
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((name) => name[1]!);
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    return undefined;
  }
}

/** Unescapes one JSON-pointer token (RFC 6901). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value a JSON pointer (`/components/schemas/Pet`) names in `root`, or undefined. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>(
      (node, token) =>
        node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[unescapePointerToken(token)] : undefined,
      root,
    );
}

/** A JSON pointer from a `$ref`'s fragment, percent-decoded (`#/paths/~1pets%7Bid%7D`). */
export function pointerOfRef(ref: string): string {
  const fragment = ref.slice(ref.indexOf('#') + 1);
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * Follows local `$ref`s (`#/components/...`; the loader has made every other one local) until a
 * value without one: the value and the pointer of where it was found (the given pointer when there
 * was no `$ref`).
 */
export function resolveRefAt<T>(document: OpenApiDocument, value: T, pointer = ''): { value: T; pointer: string } {
  let current: unknown = value;
  let at = pointer;
  for (let hops = 0; current !== null && typeof current === 'object' && '$ref' in current; hops += 1) {
    const ref = current.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) throw new Error(`the spec: $ref ${String(ref)} was not bundled`);
    if (hops > 64) throw new Error(`the spec: $ref ${ref} goes round in a circle`);
    at = pointerOfRef(ref);
    current = valueAtPointer(document, at);
    if (current === undefined) throw new Error(`the spec: $ref ${ref} points at nothing`);
  }
  return { value: current as T, pointer: at };
}

/** Follows local `$ref`s until a value without one (see resolveRefAt). */
export function resolveRef<T>(document: OpenApiDocument, value: T): T {
  return resolveRefAt(document, value).value;
}
