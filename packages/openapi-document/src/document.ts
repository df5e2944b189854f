import { escapePointerToken, resolveRef } from './pointer.js';

/** The parts of an OpenAPI 3.0 or 3.1 document its readers use; everything else passes through untyped. */
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

export interface OperationEntry<Operation extends OperationObject = OperationObject> {
  method: HttpMethod;
  /** Path template as written in the spec, e.g. /pets/{petId}. */
  path: string;
  operation: Operation;
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

/**
 * Every operation of the document, path by path in the document's order and, within a path, in
 * HTTP_METHODS' order. `Operation` is what the caller knows of its operations beyond the spec (the
 * server's own spec names every one, say); nothing here checks it.
 */
export function listOperations<Operation extends OperationObject = OperationObject>(
  document: OpenApiDocument,
): Array<OperationEntry<Operation>> {
  const entries: Array<OperationEntry<Operation>> = [];
  for (const path of Object.keys(document.paths ?? {})) {
    const item = pathItem(document, path);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Operation | undefined;
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

export interface BasePathOptions {
  /**
   * What to do when the server URLs disagree on the path: `refuse` throws (a server serves one
   * version, so its spec must name one base path); `none` answers '' (a tester is told the
   * deployment's own base URL, which decides).
   */
  onDisagreement: 'refuse' | 'none';
}

/**
 * The base path shared by every server URL (`/v1`). Server URLs may differ in host (and its
 * variables) but agree on the path. No servers, or an empty list, means one server at `/` (as
 * OpenAPI says), so the base path ''.
 */
export function basePathOf(document: OpenApiDocument, { onDisagreement }: BasePathOptions): string {
  const paths = new Set(
    (document.servers?.length ? document.servers : [{ url: '/' }]).map(({ url }) => {
      // The path alone: the scheme and authority do not matter here, and a variable for the port
      // (`https://{host}:{port}/api`) makes no URL.
      const path = url.replace(/\{[^}]+\}/g, 'host').replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '');
      return new URL(path || '/', 'http://host').pathname.replace(/\/$/, '');
    }),
  );
  if (paths.size === 1) return [...paths][0]!;
  if (onDisagreement === 'refuse') throw new Error(`servers disagree on the base path: ${[...paths].join(', ')}`);
  return '';
}
