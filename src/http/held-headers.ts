import { ServerResponse } from 'node:http';
import type { Express } from 'express';
import { contextOf } from './request-context.js';

/** A response's header fields as Node's writeHead takes them in one array: name, value, name, value, ... */
export type HeaderFields = Array<string | number>;

/** The methods through which a step reads or changes a response's headers before they are written. */
const HEADER_ACCESSORS = [
  'setHeader',
  'setHeaders',
  'appendHeader',
  'getHeader',
  'getHeaders',
  'getHeaderNames',
  'getRawHeaderNames',
  'hasHeader',
  'removeHeader',
  'flushHeaders',
] as const;

type Method = (this: ServerResponse, ...args: unknown[]) => unknown;

const nodeResponse = ServerResponse.prototype;

/**
 * Nothing is set on the response yet: not through the app's steps (headersOnResponse), nor below
 * them (Express sets X-Powered-By, where enabled, before the response has the app's prototype).
 */
function nothingSet(res: ServerResponse): boolean {
  return !contextOf(res).headersOnResponse && nodeResponse.getHeaderNames.call(res).length === 0;
}

/**
 * Holds fields that every answer to this request carries (the request id, the security and
 * deprecation headers), decided before routing, in the request's context rather than on the
 * response, so that a response that nothing else touches writes them together with its own in one
 * writeHead (holdHeadersUntilWritten). A field held twice is sent twice, as appending it would.
 */
export function holdHeaders(res: ServerResponse, fields: readonly string[]): void {
  const context = contextOf(res);
  if (context.headersOnResponse) {
    for (let i = 0; i < fields.length; i += 2) res.appendHeader(fields[i]!, fields[i + 1]!);
  } else if (context.heldHeaders === undefined) {
    context.heldHeaders = fields.slice();
  } else {
    for (const field of fields) context.heldHeaders.push(field);
  }
}

/** Sets the held fields on the response, in the order they were held: from then on it holds none. */
function setHeldHeaders(res: ServerResponse): void {
  const context = contextOf(res);
  if (context.headersOnResponse) return;
  context.headersOnResponse = true;
  const held = context.heldHeaders;
  if (held === undefined) return;
  context.heldHeaders = undefined;
  for (let i = 0; i < held.length; i += 2) nodeResponse.appendHeader.call(res, held[i]!, held[i + 1]!);
}

/**
 * Makes the app's responses write held fields (holdHeaders). Node's setHeader validates each name
 * and value, lower-cases the name and keys a table by it, and the write walks that table again;
 * handed to writeHead as one array, each field is validated and written once. A step that reads or
 * changes the headers before the write (an error answer, the rate limit's fields, Express's own
 * answers) first has the held fields set on the response, in order, so that it sees the headers as
 * if they had been set when they were held.
 */
export function holdHeadersUntilWritten(app: Express): void {
  const response = app.response as unknown as Record<string, Method>;
  for (const name of HEADER_ACCESSORS) {
    const method = response[name];
    if (typeof method !== 'function') continue;
    response[name] = function (this: ServerResponse, ...args: unknown[]) {
      setHeldHeaders(this);
      return method.apply(this, args);
    };
  }
  const writeHead = response.writeHead!;
  response.writeHead = function (this: ServerResponse, status: unknown, reason?: unknown, fields?: unknown) {
    // Only an array of fields, with nothing set on the response before: else Node merges by name.
    const given = typeof reason === 'string' ? fields : reason;
    if (!nothingSet(this) || !(given === undefined || (Array.isArray(given) && !Array.isArray(given[0])))) {
      setHeldHeaders(this);
      return writeHead.call(this, status, reason, fields);
    }
    const context = contextOf(this);
    context.headersOnResponse = true;
    const held = context.heldHeaders ?? [];
    context.heldHeaders = undefined;
    const all = given === undefined ? held : held.concat(given as string[]);
    return typeof reason === 'string' ? writeHead.call(this, status, reason, all) : writeHead.call(this, status, all);
  };
}

/**
 * Writes the status and `fields` after every field decided before (held or set), in one writeHead
 * where nothing was set on the response; a field already there is sent again, as appending it would.
 */
export function writeHeadAfter(res: ServerResponse, status: number, fields: HeaderFields): void {
  if (nothingSet(res)) {
    res.writeHead(status, fields as string[]);
  } else {
    for (let i = 0; i < fields.length; i += 2) res.appendHeader(fields[i] as string, String(fields[i + 1]));
    res.writeHead(status);
  }
}
