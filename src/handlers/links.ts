import { OPERATIONS } from '../../generated/contract.js';
import type { OperationId, PathParams } from './operation.js';

/**
 * The URL path of an operation, below the base path (e.g. /v1), with its path parameters filled in:
 * the spec's path template is the one place an operation's path is written.
 */
export function operationPath<K extends OperationId>(basePath: string, operationId: K, params?: PathParams<K>): string {
  const template: string = OPERATIONS[operationId].path;
  const values = (params ?? {}) as Record<string, string | number>;
  return basePath + template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

/** `METHOD /base/path/template` of an operation, as messages name it. */
export function operationName(basePath: string, operationId: OperationId): string {
  const { method, path } = OPERATIONS[operationId];
  return `${method} ${basePath}${path}`;
}
