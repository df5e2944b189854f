import { STATUS_CODES } from 'node:http';
import { isJsonMediaType, mediaTypeEssence } from 'openapi-document/media-types';
import { resolveRef, type OpenApiDocument, type OperationEntry, type SchemaObject } from './spec.js';

/** What every error the stack writes is made from: its code, its filled message and its status. */
export interface ErrorFacts {
  code: string;
  message: string;
  status: number;
}

/** How every error the stack writes goes out: decided once, at start-up, from the document. */
export interface ErrorFormat {
  /** What the document's error responses declare: a problem document, or an object of code and message. */
  kind: 'problem' | 'code-message' | 'message';
  /** The Content-Type header of every error response. */
  contentType: string;
  /** The body of an error, as the text sent. */
  render: (error: ErrorFacts) => string;
}

const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** RFC 9457's members: a JSON schema that has them is a problem document, whatever its media type. */
const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail'];

/** A problem document (RFC 9457): `about:blank`, so its title is the status's reason phrase; the code as an extension member where the schema has room for one. */
function problemFormat(contentType: string, withCode: boolean): ErrorFormat {
  return {
    kind: 'problem',
    contentType,
    render: ({ code, message, status }) =>
      JSON.stringify({
        type: 'about:blank',
        title: STATUS_CODES[status] ?? 'Error',
        status,
        detail: message,
        ...(withCode ? { code } : {}),
      }),
  };
}

/** An object of the code and the message, with the status where the schema has a `status` property (the pet store's Error). */
function codeMessageFormat(contentType: string, withStatus: boolean): ErrorFormat {
  return {
    kind: 'code-message',
    contentType,
    render: ({ code, message, status }) => JSON.stringify(withStatus ? { code, message, status } : { code, message }),
  };
}

/** What a schema without a code may call its human-readable message (PowerDNS's `error`). */
const MESSAGE_MEMBERS = ['message', 'error', 'detail'];

/** An object of the message under the schema's name for it, with the code where the schema has room for one. */
function messageFormat(contentType: string, member: string, withCode: boolean): ErrorFormat {
  return {
    kind: 'message',
    contentType,
    render: ({ code, message }) => JSON.stringify(withCode ? { [member]: message, code } : { [member]: message }),
  };
}

/** The documented default, for a document whose error responses declare no JSON body: RFC 9457 problem documents. */
export const DEFAULT_ERROR_FORMAT = problemFormat(`${PROBLEM_MEDIA_TYPE}; charset=utf-8`, true);

/** The properties a schema declares (its allOf's included), and whether it is closed to others. */
function shapeOf(document: OpenApiDocument, raw: SchemaObject | undefined): { properties: Set<string>; closed: boolean } {
  const properties = new Set<string>();
  let closed = false;
  const visit = (value: SchemaObject | undefined) => {
    if (!value) return;
    const schema = resolveRef(document, value);
    for (const name of Object.keys(schema['properties'] ?? {})) properties.add(name);
    closed ||= schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false;
    for (const part of (schema['allOf'] ?? []) as SchemaObject[]) visit(part);
  };
  visit(raw);
  return { properties, closed };
}

/** The format one declared error body asks for, if it is JSON the stack can fill. */
function formatOf(document: OpenApiDocument, mediaType: string, schema: SchemaObject | undefined): ErrorFormat | undefined {
  if (!isJsonMediaType(mediaType)) return undefined;
  const essence = mediaTypeEssence(mediaType);
  const contentType = `${essence}; charset=utf-8`;
  const { properties, closed } = shapeOf(document, schema);
  const room = (name: string) => properties.has(name) || !closed;
  if (essence === PROBLEM_MEDIA_TYPE || PROBLEM_MEMBERS.filter((name) => properties.has(name)).length >= 2)
    return problemFormat(contentType, room('code'));
  if (properties.has('code') && properties.has('message')) return codeMessageFormat(contentType, properties.has('status'));
  // A string message member that is all the schema requires: filled with the message alone.
  const required = new Set((resolveRef(document, schema ?? {})['required'] as string[] | undefined) ?? []);
  const member = MESSAGE_MEMBERS.find(
    (name) => properties.has(name) && [...required].every((needed) => needed === name) && stringMember(document, schema, name),
  );
  if (member) return messageFormat(contentType, member, !closed);
  return undefined;
}

/** Whether the schema's property `name` is a string. */
function stringMember(document: OpenApiDocument, schema: SchemaObject | undefined, name: string): boolean {
  const property = (resolveRef(document, schema ?? {})['properties'] as Record<string, SchemaObject> | undefined)?.[name];
  return property !== undefined && resolveRef(document, property)['type'] === 'string';
}

/**
 * The format of every error the stack writes (400, 401, 404, 405, 413, 429, 501, 503, ...), from the
 * first 4xx, 5xx or default response, in document order, that declares a JSON body it can fill:
 * `application/problem+json` or a schema with RFC 9457's members makes problem documents; a schema
 * with `code` and `message` makes that object; one that requires no more than a string `message`,
 * `error` or `detail` gets that member (and `code`, where it is open to it). A document that declares
 * none of these gets problem documents.
 */
export function readErrorFormat(document: OpenApiDocument, operations: readonly OperationEntry[]): ErrorFormat {
  for (const { operation } of operations) {
    for (const [status, raw] of Object.entries(operation.responses ?? {})) {
      if (!/^[45]|^default$/i.test(status)) continue;
      const { content = {} } = resolveRef(document, raw as { content?: Record<string, { schema?: SchemaObject }> });
      for (const [mediaType, { schema }] of Object.entries(content)) {
        const format = formatOf(document, mediaType, schema);
        if (format) return format;
      }
    }
  }
  return DEFAULT_ERROR_FORMAT;
}
