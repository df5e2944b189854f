import type { NextFunction, Request, RequestHandler, Response } from 'express';
import fastJson from 'fast-json-stringify';
import type { Contract } from '../contract/contract.js';
import { parametersOf, type OperationEntry } from '../contract/spec.js';
import type {
  OperationId,
  OperationRequest,
  OperationResult,
  RecordedResult,
  RecordingOperationHandler,
  RecordedResponse,
} from '../handlers/operation.js';
import { apiError } from '../errors/api-error.js';
import { writeHeadAfter, type HeaderFields } from './held-headers.js';
import { evaluatePreconditions, type PreconditionOutcome } from './preconditions.js';
import { contextOf } from './request-context.js';

interface ResponseObject {
  content?: { 'application/json'?: { schema?: object } };
}

/** A result as the adapter writes it, whatever the operation. */
interface AnyResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

type Serialise = (body: unknown) => string;

/**
 * A serialiser per documented 2xx JSON response, compiled (fast-json-stringify) from the response
 * schema openapi.yaml gives it, so the spec stays the one place the shape is written.
 */
function compileSerialisers(contract: Contract, { operation }: OperationEntry): Map<number, Serialise> {
  const serialisers = new Map<number, Serialise>();
  for (const [status, response] of Object.entries(operation.responses as Record<string, ResponseObject>)) {
    const schema = response.content?.['application/json']?.schema;
    if (!/^2\d\d$/.test(status) || !schema) continue;
    // Its $refs point into components, which travel along.
    const stringify = fastJson({ ...schema, components: contract.document.components } as unknown as Parameters<typeof fastJson>[0]);
    serialisers.set(Number(status), stringify);
  }
  return serialisers;
}

/**
 * Writes a handler's result: its status, its headers, its body serialised for that status, or, when
 * its preconditions found it unchanged, 304 without a body; in one writeHead with the fields held
 * before routing (held-headers.ts). Done by hand rather than with res.json, which adds
 * content-type negotiation and ETag generation (responses are no-store; the only ETag is a pet's,
 * which its handler sets from the pet's version).
 */
function writeResult(res: Response, result: AnyResult, serialisers: Map<number, Serialise>, notModified: boolean): void {
  const fields: HeaderFields = [];
  const headers = result.headers;
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) fields.push(name, value);
  }
  const serialise = notModified ? undefined : serialisers.get(result.status);
  if (!serialise) {
    writeHeadAfter(res, notModified ? 304 : result.status, fields);
    res.end();
    return;
  }
  // As bytes: encoded once. A string would be measured in UTF-8 here and again by Node's end(),
  // then encoded for the socket; fast-json-stringify builds it by concatenation, which each of
  // those passes walks piece by piece.
  const json = Buffer.from(serialise(result.body));
  fields.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', json.byteLength);
  writeHeadAfter(res, result.status, fields);
  res.end(json);
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function sendJson(res: Response, json: Uint8Array): void {
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', json.byteLength);
  res.end(json);
}

const NO_BODY = new Uint8Array(0);

/** A result as writeResult would send it, as bytes: what a handler records (OperationRequest.render). */
function renderResult(result: AnyResult, serialisers: Map<number, Serialise>): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (value !== undefined) headers[name] = value;
  }
  const serialise = serialisers.get(result.status);
  return { status: result.status, headers, body: serialise ? Buffer.from(serialise(result.body)) : NO_BODY };
}

/**
 * What a GET's conditional headers make of its answer. They count only where the answer is 2xx
 * (RFC 9110 §13.2.1). A HEAD arrives here as the GET it mirrors (headAsGet).
 */
function preconditionOf(req: Request, { status, headers = {} }: AnyResult): PreconditionOutcome {
  if (req.method !== 'GET' || status < 200 || status > 299) return 'serve';
  let etag: string | undefined;
  for (const name in headers) if (name.length === 4 && name.toLowerCase() === 'etag') etag = headers[name];
  return evaluatePreconditions(req.headers, etag);
}

/** What a handler returned: a result to write, or a response it recorded (RecordedResult). */
export type HandlerOutcome = AnyResult | RecordedResult<OperationId>;

/**
 * A look at each handler's outcome before it is written: an error for the error handler to answer
 * instead, or undefined to write it. npm run dev checks outcomes against the spec with one
 * (src/dev/response-check.ts); without one, nothing runs.
 */
export type OutcomeCheck = (req: Request, res: Response, outcome: HandlerOutcome) => unknown;

function isRecorded(result: HandlerOutcome): result is RecordedResult<OperationId> {
  return 'recorded' in result;
}

/** Sends a recorded response byte for byte, as it was first rendered. */
function writeRecorded(res: Response, { recorded, replayed }: RecordedResult<OperationId>): void {
  res.statusCode = recorded.status;
  for (const [name, value] of Object.entries(recorded.headers)) res.append(name, value);
  // The server's header (x-set-by: server in openapi.yaml): the handler only says that this is a replay.
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  if (recorded.body.byteLength === 0) res.end();
  else sendJson(res, recorded.body);
}

/**
 * The one adapter between HTTP and the handlers: turns the validated Express request into the
 * operation's typed request, calls the handler, and writes the result it returns. Errors it raises
 * go on to the error handler. Requests reaching it have passed authentication and validation.
 */
export function operationRoute<K extends OperationId>(
  contract: Contract,
  entry: OperationEntry,
  handler: RecordingOperationHandler<K>,
  check?: OutcomeCheck,
): RequestHandler {
  const write = check ? checkedWriter(check) : writeOutcome;
  const serialisers = compileSerialisers(contract, entry);
  const render = (result: OperationResult<K>) => renderResult(result, serialisers);
  // Each header parameter's name in the spec, and as Node keys req.headers: lower-cased once here,
  // since a string made per request is also looked up in V8's string table to be used as a key.
  const headerNames = parametersOf(contract.document, entry.operation)
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => [parameter.name, parameter.name.toLowerCase()] as const);
  return (req, res, next) => {
    const headers: Record<string, string | string[] | undefined> = {};
    for (const [name, key] of headerNames) headers[name] = req.headers[key];
    const request = {
      path: req.openapi?.pathParams ?? {},
      query: req.query,
      headers,
      body: req.body as unknown,
      principal: contextOf(res).principal,
      render,
    } as unknown as OperationRequest<K>;
    const result = handler(request);
    // A handler whose storage answered at once answers at once: written now, without a promise.
    if (result instanceof Promise) result.then((settled) => write(req, res, next, settled, serialisers), next);
    else write(req, res, next, result, serialisers);
  };
}

/** Writes what a handler returned, or passes a failed precondition on to the error handler. */
function writeOutcome(req: Request, res: Response, next: NextFunction, result: HandlerOutcome, serialisers: Map<number, Serialise>): void {
  if (isRecorded(result)) return writeRecorded(res, result);
  const precondition = preconditionOf(req, result);
  if (precondition === 'failed') return next(apiError('precondition_failed', {}));
  writeResult(res, result, serialisers, precondition === 'not_modified');
}

/** Writes what passes the check; passes the check's error on to the error handler instead of the rest. */
function checkedWriter(check: OutcomeCheck): typeof writeOutcome {
  return (req, res, next, result, serialisers) => {
    const refusal = check(req, res, result);
    if (refusal === undefined) writeOutcome(req, res, next, result, serialisers);
    else next(refusal);
  };
}
