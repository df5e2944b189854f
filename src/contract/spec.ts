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

/** Follows a local `$ref` (`#/components/...`), and the refs it leads to, to what it names. */
export function resolveRef<T extends { $ref?: string }>(document: OpenApiDocument, value: T): T {
  let current: { $ref?: string } = value;
  while (current.$ref) {
    const pointer = current.$ref;
    if (!pointer.startsWith('#/')) throw new Error(`openapi.yaml: only local $refs are supported, not ${pointer}`);
    current = pointer
      .slice(2)
      .split('/')
      .reduce<unknown>((node, token) => (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')], document) as {
      $ref?: string;
    };
    if (current === undefined) throw new Error(`openapi.yaml: $ref ${pointer} points at nothing`);
  }
  return current as T;
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

/** Turns an OpenAPI path template into an anchored RegExp that matches concrete paths exactly (no trailing slash). */
export function pathTemplateToRegExp(template: string): RegExp {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`);
}
