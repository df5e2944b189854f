import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, dump } from 'js-yaml';
import {
  listOperations as listDocumentOperations,
  type OpenApiDocument,
  type OperationEntry as DocumentOperationEntry,
  type OperationObject as DocumentOperationObject,
  type SchemaObject,
} from 'openapi-document/document';
import { resolveRef } from 'openapi-document/pointer';
import { PACKAGE_ROOT } from '../package-root.js';
import { loadYamlOneByte } from './one-byte-yaml.js';

// The server and scripts/ read OpenAPI documents through the module they share with the contract
// tester (packages/openapi-document); this module adds what only the server's own spec needs.
export { basePathOf, HTTP_METHODS, type HttpMethod, type OpenApiDocument, type SchemaObject } from 'openapi-document/document';
export { exactPathPattern, matchPathTemplate } from 'openapi-document/paths';
export { escapePointerToken, resolveRef, resolveRefAt, unescapePointerToken, valueAtPointer } from 'openapi-document/pointer';

/** The server's own spec names every operation (its lint requires an operationId). */
export interface OperationObject extends DocumentOperationObject {
  operationId: string;
}

/** An operation's parameter, as this service reads it. */
export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema?: SchemaObject;
}

export const SPEC_PATH = join(PACKAGE_ROOT, 'openapi.yaml');

export function readSpecText(path: string = SPEC_PATH): string {
  return readFileSync(path, 'utf8');
}

export function parseSpec(text: string): OpenApiDocument {
  // js-yaml with the YAML 1.2 core schema (plain scalars are strings, numbers, booleans or null;
  // duplicate keys are an error); chosen over the yaml package because it parses much faster, and
  // this runs at every start.
  const document = loadYamlOneByte(text) as OpenApiDocument;
  if (!document || typeof document !== 'object' || !/^3\.[01]\./.test(String(document.openapi))) {
    throw new Error('openapi.yaml must be an OpenAPI 3.0 or 3.1 document');
  }
  // Every reader may then take components and its schemas as there, in a document that has none.
  document.components ??= { schemas: {} };
  document.components.schemas ??= {};
  return document;
}

/** YAML for a document that has no source text (one built in memory, as tests do). */
export function formatSpec(document: OpenApiDocument): string {
  return dump(document, { schema: CORE_SCHEMA, noRefs: true, lineWidth: -1 });
}

export type OperationEntry = DocumentOperationEntry<OperationObject>;

export function listOperations(document: OpenApiDocument): OperationEntry[] {
  return listDocumentOperations<OperationObject>(document);
}

/** An operation's parameters, with their `$ref`s followed. */
export function parametersOf(document: OpenApiDocument, operation: OperationObject): ParameterObject[] {
  return ((operation.parameters ?? []) as ParameterObject[]).map((parameter) => resolveRef(document, parameter));
}
