import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import type { ErrorCode } from '../../src/contract/error-codes.js';
import { listOperations, pathTemplateToRegExp, type OpenApiDocument } from '../../src/contract/spec.js';

/** What every test sees of a response, whether from supertest or fetch. */
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
  $ref?: string;
}

interface ResponseObject {
  $ref?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: unknown }>;
}

/**
 * Public routes outside the API, named in openapi.yaml's description: health probes, the published
 * spec and the API reference. They are no operations, so only their success is allowed here; errors
 * are still checked.
 */
/** draft-ietf-httpapi-ratelimit-headers-11, for the one policy item this server sends per field. */
const RATE_LIMIT = /^"[A-Za-z0-9-]+";r=\d+;t=\d+$/;
const RATE_LIMIT_POLICY = /^"[A-Za-z0-9-]+";q=\d+;w=[1-9]\d*$/;

const PUBLIC_NON_API_PATHS = [/^\/healthz$/, /^\/readyz$/, /^\/openapi\.(json|yaml)$/, /^\/docs(\/.*)?$/];

function pointerEscape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolve<T>(document: OpenApiDocument, value: T & { $ref?: string }, pointer: string): { value: T; pointer: string } {
  if (!value.$ref) return { value, pointer };
  const ref = value.$ref.slice(1);
  const target = ref
    .split('/')
    .slice(1)
    .reduce<unknown>((node, token) => (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return { value: target as T, pointer: ref };
}

/**
 * Checks a response against openapi.yaml: the status is documented for the operation, the body
 * matches the documented schema, documented headers match theirs and required ones are present,
 * every error is the Error object with a status equal to the HTTP status and a code the spec gives
 * that status, and the headers every response carries are there (X-Request-Id; the rate limit
 * fields, when sent, together and well-formed).
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly document: OpenApiDocument;
  private readonly basePath: string;
  private readonly errorCodes: ReadonlyMap<ErrorCode, number>;
  private readonly routes;
  private readonly requestIdPattern: RegExp;

  constructor(contract: Contract = loadContract()) {
    this.document = contract.document;
    this.basePath = contract.basePath;
    this.errorCodes = contract.errorCodes;
    this.requestIdPattern = contract.requestIdPattern;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    this.ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
    this.ajv.addSchema(this.document, 'openapi');
    this.routes = listOperations(this.document).map((entry) => ({ ...entry, pattern: pathTemplateToRegExp(entry.path) }));
  }

  private validator(pointer: string): ValidateFunction {
    const validate = this.ajv.getSchema(`openapi#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  }

  private assertSchema(pointer: string, value: unknown, what: string): void {
    const validate = this.validator(pointer);
    if (!validate(value)) {
      throw new Error(`${what} breaks the contract (${pointer}): ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
    }
  }

  check(response: ObservedResponse): void {
    const where = `${response.method} ${response.url} → ${response.status}`;
    const path = new URL(response.url, 'http://x').pathname;
    const headers = response.headers;
    if (headers['x-powered-by'] !== undefined) throw new Error(`${where}: X-Powered-By must not be sent`);
    if (headers['x-content-type-options'] !== 'nosniff') throw new Error(`${where}: X-Content-Type-Options: nosniff is missing`);
    if (headers['cache-control'] !== 'no-store') throw new Error(`${where}: Cache-Control: no-store is missing`);
    const requestId = headers['x-request-id'];
    if (typeof requestId !== 'string' || !this.requestIdPattern.test(requestId)) {
      throw new Error(`${where}: X-Request-Id is missing or malformed: ${JSON.stringify(requestId)}`);
    }
    const [rateLimit, policy] = [headers['ratelimit'], headers['ratelimit-policy']];
    if ((rateLimit === undefined) !== (policy === undefined)) throw new Error(`${where}: RateLimit and RateLimit-Policy come together`);
    if (rateLimit !== undefined && !(RATE_LIMIT.test(String(rateLimit)) && RATE_LIMIT_POLICY.test(String(policy)))) {
      throw new Error(`${where}: malformed RateLimit ${JSON.stringify(rateLimit)} or RateLimit-Policy ${JSON.stringify(policy)}`);
    }

    // HEAD is answered as the GET it mirrors, without a body (RFC 9110 §9.3.2).
    const head = response.method === 'HEAD';
    if (head && response.text) throw new Error(`${where}: a response to HEAD must have no body`);
    if (response.status >= 400) {
      if (!String(headers['content-type']).startsWith('application/json')) throw new Error(`${where}: an error must be application/json`);
      if (head) return;
      this.assertSchema('/components/schemas/Error', response.body, `${where} error body`);
      const body = response.body as { code: ErrorCode; status: number };
      if (body.status !== response.status) throw new Error(`${where}: Error.status ${body.status} differs from the HTTP status`);
      if (this.errorCodes.get(body.code) !== response.status) throw new Error(`${where}: the spec gives code ${body.code} another status`);
    }

    const inApi = path === this.basePath || path.startsWith(`${this.basePath}/`);
    const relative = inApi ? path.slice(this.basePath.length) : undefined;
    const method = head ? 'get' : response.method.toLowerCase();
    const route = relative === undefined ? undefined : this.routes.find((r) => r.method === method && r.pattern.test(relative));
    if (!route) {
      // No operation: only errors (401 first, then 404/405) may come back.
      const isPublic = method === 'get' && PUBLIC_NON_API_PATHS.some((pattern) => pattern.test(path));
      if (response.status < 400 && !isPublic) throw new Error(`${where}: success from a path and method the spec does not have`);
      return;
    }
    const operationPointer = `/paths/${pointerEscape(route.path)}/${route.method}`;
    const responses = route.operation.responses as Record<string, ResponseObject>;
    const key = String(response.status) in responses ? String(response.status) : 'default';
    if (!(key in responses)) throw new Error(`${where}: status ${response.status} is not documented for ${route.operation.operationId}`);
    const { value: documented, pointer } = resolve<ResponseObject>(this.document, responses[key]!, `${operationPointer}/responses/${key}`);

    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const { value: headerObject, pointer: headerPointer } = resolve<HeaderObject>(
        this.document,
        header,
        `${pointer}/headers/${pointerEscape(name)}`,
      );
      const actual = headers[name.toLowerCase()];
      if (actual === undefined) {
        if (headerObject.required) throw new Error(`${where}: required header ${name} is missing`);
        continue;
      }
      if (headerObject.schema)
        this.assertSchema(`${headerPointer}/schema`, Array.isArray(actual) ? actual.join(', ') : actual, `${where} header ${name}`);
    }

    if (documented.content && !head) {
      if (!String(headers['content-type']).startsWith('application/json')) throw new Error(`${where}: expected application/json`);
      this.assertSchema(`${pointer}/content/application~1json/schema`, response.body, `${where} body`);
    } else if (response.text) {
      throw new Error(`${where}: the spec documents no body, but one was sent`);
    }
  }
}

let shared: ContractChecker | undefined;

export function checkContract(response: ObservedResponse): void {
  shared ??= new ContractChecker();
  shared.check(response);
}
