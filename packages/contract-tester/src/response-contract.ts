import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import {
  basePathOf,
  escapePointerToken,
  exactPathPattern,
  listOperations,
  resolveRefAt,
  type OpenApiDocument,
  type OperationEntry,
  type SchemaObject,
} from './openapi.js';
import { createAjv } from './schema-validator.js';
import { isJsonMediaType } from './spec-model.js';

/**
 * The status of each stable error code, when the spec has a `components.schemas.ErrorCode`: a oneOf
 * of one `const` per code, its HTTP status in `x-http-status`.
 */
function readErrorCodes(document: OpenApiDocument): ReadonlyMap<string, number> {
  const variants = document.components.schemas['ErrorCode']?.['oneOf'];
  if (!Array.isArray(variants)) throw new Error('openapi.yaml: components.schemas.ErrorCode must be a oneOf of consts');
  const table = new Map<string, number>();
  for (const variant of variants as SchemaObject[]) {
    const code = variant['const'];
    const status = variant['x-http-status'];
    if (typeof code !== 'string' || !Number.isInteger(status) || (status as number) < 400 || (status as number) > 599) {
      throw new Error(`openapi.yaml: ErrorCode entry ${JSON.stringify(variant)} needs a string const and an x-http-status 4xx/5xx`);
    }
    table.set(code, status as number);
  }
  return table;
}

/** What the checker sees of a response, whoever sent the request (the tester, supertest, fetch). */
export interface ObservedResponse {
  method: string;
  /** Path and query as requested. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

interface HeaderObject {
  required?: boolean;
  schema?: unknown;
}

interface ResponseObject {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}

/**
 * Public routes outside the API, named in openapi.yaml's description: health probes, the published
 * spec and the API reference. They are no operations, so only their success is allowed here; errors
 * are still checked.
 */
const PUBLIC_NON_API_PATHS = [/^\/healthz$/, /^\/readyz$/, /^\/openapi\.(json|yaml)$/, /^\/docs(\/.*)?$/];

/**
 * Server errors that come before routing and so may answer any request: 503 (the server is shutting
 * down, or cannot reach its database) and 505 (an HTTP version it does not speak).
 */
const ANY_REQUEST_5XX = new Set([503, 505]);

const mediaTypeOf = (contentType: unknown) =>
  typeof contentType === 'string' ? contentType.split(';')[0]!.trim().toLowerCase() : undefined;

/**
 * Checks a response against the spec: the status is documented for the operation (no 5xx it does
 * not document), the content type is one documented for that status and the body is valid against
 * its schema, documented headers are valid and required ones present, every error is the Error
 * object whose status equals the HTTP status and whose code the spec gives that status, a 405
 * carries Allow, and the headers every API response carries are there. HEAD is checked as GET
 * without a body (RFC 9110 §9.3.2). Paths match the spec's templates exactly.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly basePath: string;
  private readonly errorCodes: ReadonlyMap<string, number> | undefined;
  private readonly hasErrorSchema: boolean;
  private readonly routes: Array<OperationEntry & { pattern: RegExp }>;

  constructor(
    private readonly document: OpenApiDocument,
    options: { basePath?: string } = {},
  ) {
    this.basePath = options.basePath ?? basePathOf(document);
    this.hasErrorSchema = document.components.schemas['Error'] !== undefined;
    this.errorCodes = document.components.schemas['ErrorCode'] ? readErrorCodes(document) : undefined;
    this.ajv = createAjv();
    this.ajv.addSchema(document, 'openapi');
    this.routes = listOperations(document).map((entry) => ({ ...entry, pattern: exactPathPattern(entry.path) }));
  }

  private validator(pointer: string): ValidateFunction {
    const validate = this.ajv.getSchema(`openapi#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  }

  private schemaViolation(pointer: string, value: unknown, what: string): string | undefined {
    const validate = this.validator(pointer);
    if (validate(value)) return undefined;
    return `${what} breaks the contract (${pointer}): ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`;
  }

  /** The operation a request reached by the spec, if any (HEAD reaches the GET operation). */
  route(method: string, url: string): OperationEntry | undefined {
    const path = new URL(url, 'http://x').pathname;
    if (path !== this.basePath && !path.startsWith(`${this.basePath}/`)) return undefined;
    const relative = path.slice(this.basePath.length);
    const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    return this.routes.find((route) => route.method === wanted && route.pattern.test(relative));
  }

  /** Everything wrong with a response, in words; empty when it keeps the contract. */
  violations(response: ObservedResponse): string[] {
    const where = `${response.method} ${response.url} → ${response.status}`;
    const found: string[] = [];
    const add = (problem: string | undefined) => {
      if (problem) found.push(problem.startsWith(where) ? problem : `${where}: ${problem}`);
    };
    const headers = response.headers;
    const head = response.method.toUpperCase() === 'HEAD';
    if (headers['x-powered-by'] !== undefined) add('X-Powered-By must not be sent');
    if (headers['x-content-type-options'] !== 'nosniff') add('X-Content-Type-Options: nosniff is missing');
    if (headers['cache-control'] !== 'no-store') add('Cache-Control: no-store is missing');
    if (response.status === 405 && headers['allow'] === undefined) add('a 405 must carry Allow (RFC 9110 §15.5.6)');
    if (head && response.text) add('a response to HEAD must not have a body');

    if (response.status >= 400 && !head && this.hasErrorSchema) {
      if (mediaTypeOf(headers['content-type']) !== 'application/json') add('an error must be application/json');
      else add(this.schemaViolation('/components/schemas/Error', response.body, `${where} error body`));
      const body = response.body as { code?: string; status?: number } | undefined;
      if (body?.status !== undefined && body.status !== response.status) add(`Error.status ${body.status} differs from the HTTP status`);
      if (body?.code !== undefined && this.errorCodes && this.errorCodes.get(body.code) !== response.status)
        add(`the spec gives code ${body.code} another status`);
    }

    const route = this.route(response.method, response.url);
    if (!route) {
      // No operation: only errors (401 first, then 404/405) may come back, and no 5xx, which no
      // operation documents here.
      const path = new URL(response.url, 'http://x').pathname;
      const isPublic = (response.method === 'GET' || head) && PUBLIC_NON_API_PATHS.some((pattern) => pattern.test(path));
      if (response.status < 400 && !isPublic) add('success from a path and method the spec does not have');
      if (response.status >= 500 && !isPublic && !ANY_REQUEST_5XX.has(response.status)) {
        add(`status ${response.status} for a path and method the spec does not have`);
      }
      return found;
    }
    const operationPointer = `/paths/${escapePointerToken(route.path)}/${route.method}`;
    const responses = route.operation.responses;
    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in responses);
    if (!key) {
      add(`status ${response.status} is not documented for ${route.operation.operationId}`);
      return found;
    }
    const { value: documented, pointer } = resolveRefAt(
      this.document,
      responses[key] as ResponseObject,
      `${operationPointer}/responses/${key}`,
    );

    for (const [name, raw] of Object.entries(documented.headers ?? {})) {
      const { value: header, pointer: headerPointer } = resolveRefAt(
        this.document,
        raw as HeaderObject,
        `${pointer}/headers/${escapePointerToken(name)}`,
      );
      const actual = headers[name.toLowerCase()];
      if (actual === undefined) {
        if (header.required) add(`required header ${name} is missing`);
        continue;
      }
      if (header.schema)
        add(this.schemaViolation(`${headerPointer}/schema`, Array.isArray(actual) ? actual.join(', ') : actual, `${where} header ${name}`));
    }

    const mediaTypes = Object.keys(documented.content ?? {});
    if (head) return found;
    if (mediaTypes.length) {
      const actual = mediaTypeOf(headers['content-type']);
      const mediaType = mediaTypes.find((type) => type.toLowerCase() === actual);
      if (!mediaType) {
        add(`Content-Type ${String(headers['content-type'])} is not one documented (${mediaTypes.join(', ')})`);
      } else if (isJsonMediaType(mediaType) && documented.content![mediaType]!.schema !== undefined) {
        add(this.schemaViolation(`${pointer}/content/${escapePointerToken(mediaType)}/schema`, response.body, `${where} body`));
      }
    } else if (response.text) {
      add('the spec documents no body, but one was sent');
    }
    return found;
  }

  /** Throws, naming every violation, when the response breaks the contract. */
  check(response: ObservedResponse): void {
    const found = this.violations(response);
    if (found.length) throw new Error(found.join('\n'));
  }
}
