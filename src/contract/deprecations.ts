import { listOperations, exactPathPattern, type HttpMethod, type OpenApiDocument } from './spec.js';

export interface Deprecation {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** Matches the request path relative to the base path. */
  pathPattern: RegExp;
  deprecatedAt: Date;
  sunsetAt: Date;
  replacement: { href: string; title?: string };
}

interface DeprecationExtension {
  deprecatedAt?: unknown;
  sunsetAt?: unknown;
  replacement?: { href?: unknown; title?: unknown };
}

/** An RFC 3339 date-time of the spec, or an error naming where it is. */
export function parseInstant(value: unknown, where: string): Date {
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new Error(`openapi.yaml: ${where} must be an RFC 3339 date-time`);
  return date;
}

/**
 * Every operation marked `deprecated: true` must carry `x-deprecation` with its dates and
 * replacement: the server derives the Deprecation, Sunset and Link headers and the 410 from them,
 * so a newly deprecated operation needs no code change.
 */
export function readDeprecations(document: OpenApiDocument): Deprecation[] {
  return listOperations(document)
    .filter(({ operation }) => operation.deprecated === true)
    .map(({ method, path, operation }) => {
      const where = `${operation.operationId} x-deprecation`;
      const extension = operation['x-deprecation'] as DeprecationExtension | undefined;
      if (!extension) throw new Error(`openapi.yaml: ${operation.operationId} is deprecated but has no x-deprecation`);
      if (!('410' in operation.responses))
        throw new Error(`openapi.yaml: ${operation.operationId} is deprecated but does not document its 410 response`);
      const href = extension.replacement?.href;
      if (typeof href !== 'string') throw new Error(`openapi.yaml: ${where}.replacement.href is required`);
      const title = extension.replacement?.title;
      const deprecation: Deprecation = {
        operationId: operation.operationId,
        method,
        path,
        pathPattern: exactPathPattern(path),
        deprecatedAt: parseInstant(extension.deprecatedAt, `${where}.deprecatedAt`),
        sunsetAt: parseInstant(extension.sunsetAt, `${where}.sunsetAt`),
        replacement: typeof title === 'string' ? { href, title } : { href },
      };
      if (deprecation.sunsetAt <= deprecation.deprecatedAt) throw new Error(`openapi.yaml: ${where}.sunsetAt must follow deprecatedAt`);
      return deprecation;
    });
}
