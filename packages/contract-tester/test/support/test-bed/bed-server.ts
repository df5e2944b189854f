import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { jsonText, parseExactJson, validatedView } from '../../../src/generate/json-text.js';
import { createAjv } from '../../../src/generate/schema-validator.js';
import { documentFor, goesOtherWay } from '../../../src/spec/directions.js';
import {
  listOperations,
  matchPathTemplate,
  resolveRef,
  resolveRefAt,
  valueAtPointer,
  type OpenApiDocument,
  type OperationEntry,
} from '../../../src/spec/openapi.js';

/**
 * A tiny HTTP server that keeps an OpenAPI document, for the tester's test bed: plain node:http,
 * routing by the spec's path templates (404 for other paths, 405 with Allow for other methods),
 * credentials checked as the operation's security says, parameters and bodies validated against the
 * spec's schemas (400 with the API's own error body), then the operation's handler. With a planted
 * bug, one thing goes wrong on purpose.
 */

/** The bugs a bed server can have, one at a time: each a contract violation the tester must name. */
export const BUGS = [
  'missing-required-field',
  'wrong-type',
  'server-error',
  'accepts-invalid-enum',
  'ignores-auth',
  'wrong-content-type',
  'loses-creates',
  'serves-deleted',
] as const;
export type Bug = (typeof BUGS)[number];

export interface BedRequest {
  operation: OperationEntry;
  /** Path parameters and query parameters, typed as their schemas say. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  /** The body, parsed (JSON, a form) or as bytes. */
  body: unknown;
}

export interface BedResponse {
  status: number;
  body?: unknown;
  /** Defaults to application/json for a body that is not a Buffer or a string. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** An answer other than success, in the API's own error form (its status documented by the operation). */
export class BedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface BedDefinition {
  document: OpenApiDocument;
  handlers: Record<string, (request: BedRequest, bug: Bug | undefined) => BedResponse | Promise<BedResponse>>;
  /** The error body of a status, in the API's form. */
  error: (status: number, message: string) => BedResponse;
  /** Whether a credential is one the server issued: `scheme` is the security scheme's name. */
  accepts: (scheme: string, value: string) => boolean;
  /**
   * `ignored`: a client's value of a readOnly property of the body is dropped before anything reads
   * it (OpenAPI lets a server ignore it or refuse it; by default it is validated, so refused if bad).
   */
  readOnlyInput?: 'ignored';
}

function coerce(text: string, schema: Record<string, unknown>): unknown {
  const type = schema['type'];
  const types = Array.isArray(type) ? type : [type];
  // An integer of 64 bits is read exactly (an int64 id past 2^53), as the tester sends it.
  if (types.includes('integer') && /^-?(0|[1-9]\d{0,19})$/.test(text)) return parseExactJson(text);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The credential a request carries for a scheme, if it carries one. */
function credential(document: OpenApiDocument, name: string, request: IncomingMessage, url: URL): string | undefined {
  const scheme = resolveRef(document, ((document.components['securitySchemes'] ?? {}) as Record<string, Record<string, string>>)[name]);
  if (!scheme) return undefined;
  const authorization = request.headers.authorization ?? '';
  if (scheme['type'] === 'http') {
    const [kind, value] = authorization.split(' ');
    return kind?.toLowerCase() === scheme['scheme']!.toLowerCase() ? value : undefined;
  }
  if (scheme['type'] === 'oauth2' || scheme['type'] === 'openIdConnect') {
    const [kind, value] = authorization.split(' ');
    return kind?.toLowerCase() === 'bearer' ? value : undefined;
  }
  if (scheme['type'] === 'apiKey') {
    if (scheme['in'] === 'header') return request.headers[scheme['name']!.toLowerCase()] as string | undefined;
    if (scheme['in'] === 'query') return url.searchParams.get(scheme['name']!) ?? undefined;
    const cookie = (request.headers.cookie ?? '').split('; ').find((pair) => pair.startsWith(`${scheme['name']}=`));
    return cookie?.slice(scheme['name']!.length + 1);
  }
  return undefined;
}

function authenticated(definition: BedDefinition, operation: OperationEntry, request: IncomingMessage, url: URL): boolean {
  const requirements = operation.operation.security ?? definition.document.security ?? [];
  if (!requirements.length || requirements.some((requirement) => !Object.keys(requirement).length)) return true;
  return requirements.some((requirement) =>
    Object.keys(requirement).every((name) => {
      const value = credential(definition.document, name, request, url);
      return value !== undefined && definition.accepts(name, value);
    }),
  );
}

function send(response: ServerResponse, answer: BedResponse, bug: Bug | undefined, head = false): void {
  let bytes: Buffer | undefined;
  let type = answer.contentType;
  if (Buffer.isBuffer(answer.body)) bytes = answer.body;
  else if (typeof answer.body === 'string') bytes = Buffer.from(answer.body);
  else if (answer.body !== undefined) {
    bytes = Buffer.from(jsonText(answer.body));
    type ??= 'application/json';
    if (bug === 'wrong-content-type' && answer.status < 300) type = 'text/plain';
  }
  response.writeHead(answer.status, { ...(type && bytes ? { 'Content-Type': type } : {}), ...answer.headers });
  response.end(head ? undefined : bytes);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A form's fields as the value its schema describes (OpenAPI's default form encoding): a list from
 * repeated fields, an object (or a list's object item) as JSON, numbers and booleans from their text.
 */
function formValue(document: OpenApiDocument, pointer: string, form: URLSearchParams): Record<string, unknown> {
  const schema = mergedSchema(document, valueAtPointer(document, pointer));
  const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const property = mergedSchema(document, properties[name] ?? {});
    const one = (text: string, of: Record<string, unknown>): unknown => {
      if (of['type'] === 'object' || of['properties']) {
        try {
          return parseExactJson(text);
        } catch {
          throw new BedError(400, `form field ${name} is not JSON`);
        }
      }
      return coerce(text, of);
    };
    const texts = form.getAll(name);
    value[name] =
      property['type'] === 'array'
        ? texts.map((text) => one(text, mergedSchema(document, property['items'] ?? {})))
        : one(texts[0]!, property);
  }
  return value;
}

function mergedSchema(document: OpenApiDocument, raw: unknown): Record<string, unknown> {
  const schema = resolveRef(document, raw as Record<string, unknown>);
  const parts = (schema['allOf'] as unknown[] | undefined) ?? [];
  return parts.reduce<Record<string, unknown>>((merged, part) => {
    const next = mergedSchema(document, part);
    return { ...merged, ...next, properties: { ...(merged['properties'] as object), ...(next['properties'] as object) } };
  }, schema);
}

/** A request body as the media types the operation takes read it; a BedError 400 or 415 otherwise. */
function parseBody(
  entry: OperationEntry,
  document: OpenApiDocument,
  request: IncomingMessage,
  bytes: Buffer,
): { value: unknown; schemaPointer?: string } {
  const body = entry.operation.requestBody
    ? resolveRef(document, entry.operation.requestBody as { required?: boolean; content: Record<string, unknown> })
    : undefined;
  if (!body) return { value: undefined };
  if (!bytes.length) {
    if (body.required) throw new BedError(400, 'the body is required');
    return { value: undefined };
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const mediaType = Object.keys(body.content).find((candidate) => candidate.toLowerCase() === type);
  if (!mediaType) throw new BedError(415, `Content-Type ${type || '(none)'} is not taken`);
  const pointer = `${entry.pointer}/requestBody/content/${mediaType.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
  if (/json$/.test(mediaType)) {
    try {
      return { value: parseExactJson(bytes.toString('utf8')), schemaPointer: pointer };
    } catch {
      throw new BedError(400, 'the body is not JSON');
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded')
    return { value: formValue(document, pointer, new URLSearchParams(bytes.toString('utf8'))), schemaPointer: pointer };
  return { value: bytes };
}

/** Starts a bed server on a free port of 127.0.0.1; its base URL has the spec's base path. */
export async function startBedServer(definition: BedDefinition, bug?: Bug): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const { document } = definition;
  const basePath = new URL(document.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/$/, '');
  const routes = listOperations(document);
  const ajv: Ajv2020 = createAjv();
  // Requests are held to the spec as requests see it: a readOnly property is never required of them.
  ajv.addSchema(documentFor('request', document), 'spec');
  const valid = (pointer: string, value: unknown, where: string) => {
    const validate = ajv.getSchema(`spec#${pointer}`)!;
    if (validate(validatedView(value))) return;
    const errors = (validate.errors ?? []).filter((error) => !(bug === 'accepts-invalid-enum' && error.keyword === 'enum'));
    // The planted bug: an enum no longer checked (its schema's other keywords still are).
    if (errors.length) throw new BedError(400, `${where}: ${ajv.errorsText(errors)}`);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const bytes = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://x');
      const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : undefined;
      const here = path === undefined ? [] : routes.filter((route) => matchPathTemplate(route.path, path) !== undefined);
      const method = request.method!.toLowerCase();
      if (!here.length) return send(response, definition.error(404, 'no such path'), bug);
      const entry =
        here.find((route) => route.method === method) ?? (method === 'head' ? here.find((route) => route.method === 'get') : undefined);
      if (!entry) {
        const allow = here.map((route) => route.method.toUpperCase()).join(', ');
        return send(
          response,
          { ...definition.error(405, `${request.method} is not a method of this path`), headers: { Allow: allow } },
          bug,
        );
      }
      try {
        if (bug !== 'ignores-auth' && !authenticated(definition, entry, request, url))
          throw new BedError(401, 'credentials missing or unknown');
        const raw = matchPathTemplate(entry.path, path!)!;
        const params: Record<string, unknown> = {};
        const query: Record<string, unknown> = {};
        const pathItem = entry.pointer.slice(0, entry.pointer.lastIndexOf('/'));
        const sources = [
          ...entry.pathParameters.map((parameter, index) => ({ parameter, at: `${pathItem}/parameters/${index}` })),
          ...(entry.operation.parameters ?? []).map((parameter, index) => ({ parameter, at: `${entry.pointer}/parameters/${index}` })),
        ];
        const parameters = sources.map(({ parameter, at }) => {
          const { value, pointer } = resolveRefAt(
            document,
            parameter as { name: string; in: string; required?: boolean; schema: Record<string, unknown> },
            at,
          );
          return { ...value, schemaPointer: `${pointer}/schema` };
        });
        const declared = new Set(parameters.filter(({ in: where }) => where === 'query').map(({ name }) => name));
        for (const parameter of parameters) {
          const schema = resolveRef(document, parameter.schema);
          let value: unknown;
          if (parameter.in === 'path') value = coerce(raw[parameter.name]!, schema);
          else if (parameter.in === 'query') {
            const all = url.searchParams.getAll(parameter.name);
            if (!all.length) value = undefined;
            else
              value =
                schema['type'] === 'array'
                  ? all.map((one) => coerce(one, resolveRef(document, schema['items'] as Record<string, unknown>)))
                  : coerce(all[0]!, schema);
          } else if (parameter.in === 'header') {
            const header = request.headers[parameter.name.toLowerCase()];
            value = header === undefined ? undefined : coerce(String(header), schema);
          }
          if (value === undefined) {
            if (parameter.required) throw new BedError(400, `${parameter.in} parameter ${parameter.name} is required`);
            continue;
          }
          try {
            valid(parameter.schemaPointer, value, `${parameter.in} parameter ${parameter.name}`);
          } catch (error) {
            // A path that names nothing the API has is not found, where the operation documents no 400.
            const documents400 = Object.keys(resolveRef(document, entry.operation.responses)).some(
              (status) => status === '400' || status === '4XX',
            );
            if (parameter.in === 'path' && !documents400) throw new BedError(404, (error as Error).message);
            throw error;
          }
          (parameter.in === 'path' ? params : query)[parameter.name] = value;
        }
        // The spec names its query parameters: another one is a mistake the client should hear of.
        for (const name of url.searchParams.keys())
          if (!declared.has(name) && !isCredentialParameter(document, name)) throw new BedError(400, `unknown query parameter ${name}`);
        const body = parseBody(entry, document, request, bytes);
        if (definition.readOnlyInput === 'ignored' && body.schemaPointer)
          body.value = withoutReadOnly(document, body.schemaPointer, body.value);
        if (body.schemaPointer && body.value !== undefined) valid(body.schemaPointer, body.value, 'the body');
        const answer = await definition.handlers[entry.id]!(
          { operation: entry, params, query, headers: request.headers, body: body.value },
          bug,
        );
        send(response, answer, bug, method === 'head');
      } catch (error) {
        if (error instanceof BedError) return send(response, definition.error(error.status, error.message), bug, method === 'head');
        send(response, { status: 500, body: 'internal error', contentType: 'text/plain' }, bug, method === 'head');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A body object without the properties its schema marks readOnly (the server's to set). */
function withoutReadOnly(document: OpenApiDocument, pointer: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties = (mergedSchema(document, valueAtPointer(document, pointer))['properties'] ?? {}) as Record<string, unknown>;
  const resolve = (node: unknown) => resolveRef(document, node as Record<string, unknown>);
  return Object.fromEntries(Object.entries(value).filter(([name]) => !goesOtherWay(properties[name], 'request', resolve)));
}

function isCredentialParameter(document: OpenApiDocument, name: string): boolean {
  return Object.values((document.components['securitySchemes'] ?? {}) as Record<string, Record<string, string>>).some(
    (scheme) => scheme['type'] === 'apiKey' && scheme['in'] === 'query' && scheme['name'] === name,
  );
}

/** What a bed server keeps: items by id. With a planted bug, creates are lost or deletes do nothing. */
export class BedStore<T> {
  private readonly items = new Map<string, T>();

  constructor(private readonly bug: Bug | undefined) {}

  create(id: string, item: T): T {
    if (this.bug !== 'loses-creates') this.items.set(id, item);
    return item;
  }

  get(id: string): T {
    const item = this.items.get(id);
    if (item === undefined) throw new BedError(404, `no ${id}`);
    return item;
  }

  put(id: string, item: T): T {
    this.items.set(id, item);
    return item;
  }

  delete(id: string): void {
    this.get(id);
    if (this.bug !== 'serves-deleted') this.items.delete(id);
  }

  list(): T[] {
    return [...this.items.values()];
  }
}

/** The planted response bugs: a required field dropped, or a field of another type. */
export function withResponseBug<T extends Record<string, unknown>>(
  item: T,
  bug: Bug | undefined,
  required: keyof T,
  typed: keyof T,
): Record<string, unknown> {
  if (bug === 'missing-required-field') {
    const { [required]: _dropped, ...rest } = item;
    return rest;
  }
  if (bug === 'wrong-type') return { ...item, [typed]: String(item[typed]) };
  return item;
}
