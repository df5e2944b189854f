import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { PACKAGE_ROOT } from '../package-root.js';

/** The parts of an OpenAPI 3.1 document this service reads; everything else passes through untyped. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: Array<{ url: string; description?: string; variables?: Record<string, { default: string }> }>;
  paths: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, unknown>>;
  components: { schemas: Record<string, SchemaObject> } & Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

export interface SchemaObject {
  [keyword: string]: unknown;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  deprecated?: boolean;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  [extension: `x-${string}`]: unknown;
}

/** An operation's parameter, as this service reads it. */
export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema?: SchemaObject;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const SPEC_PATH = join(PACKAGE_ROOT, 'openapi.yaml');

export function readSpecText(path: string = SPEC_PATH): string {
  return readFileSync(path, 'utf8');
}

export function parseSpec(text: string): OpenApiDocument {
  // js-yaml with the YAML 1.2 core schema (plain scalars are strings, numbers, booleans or null;
  // duplicate keys are an error); chosen over the yaml package because it parses much faster, and
  // this runs at every start.
  const document = load(text, { schema: CORE_SCHEMA }) as OpenApiDocument;
  if (!document || typeof document !== 'object' || !String(document.openapi).startsWith('3.1')) {
    throw new Error('openapi.yaml must be an OpenAPI 3.1 document');
  }
  return document;
}

/** YAML for a document that has no source text (one built in memory, as tests do). */
export function formatSpec(document: OpenApiDocument): string {
  return dump(document, { schema: CORE_SCHEMA, noRefs: true, lineWidth: -1 });
}

export interface OperationEntry {
  method: HttpMethod;
  /** Path template as written in the spec, e.g. /pets/{petId}. */
  path: string;
  operation: OperationObject;
}

export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation) entries.push({ method, path, operation });
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
    (document.servers ?? [{ url: '/' }]).map(({ url }) => {
      const withoutVariables = url.replace(/\{[^}]+\}/g, 'host');
      return new URL(withoutVariables, 'http://host').pathname.replace(/\/$/, '');
    }),
  );
  if (paths.size !== 1) throw new Error(`servers in openapi.yaml disagree on the base path: ${[...paths].join(', ')}`);
  return [...paths][0]!;
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

/**
 * Follows local `$ref`s (`#/components/...`) until a value without one: the value and the pointer
 * of where it was found (the given pointer when there was no `$ref`).
 */
export function resolveRefAt<T>(document: OpenApiDocument, value: T, pointer = ''): { value: T; pointer: string } {
  let current: unknown = value;
  let at = pointer;
  for (let hops = 0; current !== null && typeof current === 'object' && '$ref' in current; hops += 1) {
    const ref = current.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#'))
      throw new Error(`openapi.yaml: only local $refs are supported, not ${String(ref)}`);
    if (hops > 64) throw new Error(`openapi.yaml: $ref ${ref} goes round in a circle`);
    at = ref.slice(1);
    current = valueAtPointer(document, at);
    if (current === undefined) throw new Error(`openapi.yaml: $ref ${ref} points at nothing`);
  }
  return { value: current as T, pointer: at };
}

/** Follows local `$ref`s until a value without one (see resolveRefAt). */
export function resolveRef<T>(document: OpenApiDocument, value: T): T {
  return resolveRefAt(document, value).value;
}

/** An operation's parameters, with their `$ref`s followed. */
export function parametersOf(document: OpenApiDocument, operation: OperationObject): ParameterObject[] {
  return ((operation.parameters ?? []) as ParameterObject[]).map((parameter) => resolveRef(document, parameter));
}
