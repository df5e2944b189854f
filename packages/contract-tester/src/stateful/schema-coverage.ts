import type { CaseKind } from '../checks/expectations.js';
import { covers } from '../checks/media-types.js';
import { splitTarget, type TestRequest } from '../generate/requests.js';
import type { HttpResponse } from '../http/http-client.js';
import { goesOtherWay } from '../spec/directions.js';
import { documentedResponse, isSuccessStatus, type ApiModel, type OperationModel, type Schema } from '../spec/model.js';
import { isJsonMediaType, matchPathTemplate, mediaTypeEssence } from '../spec/openapi.js';

/** What one operation's requests and answers covered of what the spec says of it, and what they did not. */
export interface OperationCoverage {
  operation: string;
  method: string;
  path: string;
  /** A valid request got a success (2xx), or, where the operation documents none, any answer. */
  exercised: boolean;
  /** `in.name`: `query.limit`, `path.petId`. */
  parameters: CoverageItems;
  /** Top-level properties of the request body's schemas (readOnly ones left out). */
  bodyProperties: CoverageItems;
  /** Documented responses, as `status media-type` (`200 application/json`), or the status alone where no content is documented. */
  responses: CoverageItems;
}

export interface CoverageItems {
  covered: string[];
  missing: string[];
}

export interface CoverageCount {
  covered: number;
  total: number;
  /** covered / total in percent; 100 when there is nothing to cover. */
  percent: number;
}

export const COVERAGE_KINDS = ['operations', 'parameters', 'bodyProperties', 'responses'] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

export interface SchemaCoverageReport {
  operations: OperationCoverage[];
  /** Per kind, and overall: every item of every kind counted once, whatever its kind. */
  totals: Record<CoverageKind | 'overall', CoverageCount>;
}

/** The requests that are the operation's own: not another method, OPTIONS, HEAD or a path the spec does not have. */
const OWN_KINDS: ReadonlySet<CaseKind> = new Set(['positive', 'link', 'negative', 'unauthenticated', 'auth-first']);

/** What was sent and answered, as coverage reads it. */
export interface CoveredExchange {
  kind: CaseKind;
  operation: OperationModel;
  request: TestRequest;
  /** The value a body was made from (a form's, say), when the case kept it. */
  bodyValue?: unknown;
  response: HttpResponse;
}

export function countOf(covered: number, total: number): CoverageCount {
  return { covered, total, percent: total ? (100 * covered) / total : 100 };
}

/** Every parameter of an operation, as `in.name`. */
function parameterKeys(operation: OperationModel): string[] {
  return operation.parameters.map((parameter) => `${parameter.in}.${parameter.name}`);
}

/** Top-level property names of a schema and of the allOf, oneOf and anyOf parts it applies in place. */
function propertyNames(schema: Schema, depth = 0): string[] {
  if (depth > 4) return [];
  const names: string[] = [];
  const properties = schema['properties'];
  if (properties && typeof properties === 'object') {
    for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
      if (!goesOtherWay(property, 'request')) names.push(name);
    }
  }
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const parts = schema[keyword];
    if (Array.isArray(parts)) for (const part of parts as Schema[]) names.push(...propertyNames(part, depth + 1));
  }
  return names;
}

/** The body properties an operation documents, over the media types the tester makes. */
function bodyPropertyKeys(operation: OperationModel): string[] {
  const media = (operation.body?.media ?? []).filter(({ kind }) => kind === 'json' || kind === 'form' || kind === 'multipart');
  return [...new Set(media.flatMap(({ schema }) => propertyNames(schema)))];
}

/** Every documented response, by status and media type. */
function responseKeys(operation: OperationModel): string[] {
  return operation.responses.flatMap(({ status, mediaTypes }) =>
    mediaTypes.length ? mediaTypes.map((mediaType) => `${status} ${mediaType}`) : [status],
  );
}

/** The documented response an answer is, by status and content type; undefined for one the spec does not document. */
function responseKey(operation: OperationModel, response: HttpResponse): string | undefined {
  const documented = documentedResponse(operation, response.status);
  if (!documented) return undefined;
  if (!documented.mediaTypes.length) return documented.status;
  const header = response.headers['content-type'];
  if (typeof header !== 'string') return undefined;
  const actual = mediaTypeEssence(header);
  const mediaType =
    documented.mediaTypes.find((type) => mediaTypeEssence(type) === actual) ?? documented.mediaTypes.find((type) => covers(type, actual));
  return mediaType === undefined ? undefined : `${documented.status} ${mediaType}`;
}

/** The names of the cookies a Cookie header carries. */
function cookieNames(value: string): string[] {
  return value.split(';').map((pair) => pair.split('=')[0]!.trim());
}

/** The parameters a request carries with a value, as `in.name`. */
function sentParameters(exchange: CoveredExchange, basePath: string): string[] {
  const { operation, request } = exchange;
  const [path, query] = splitTarget(request.target);
  const inPath = path.startsWith(basePath) ? matchPathTemplate(operation.path, path.slice(basePath.length)) : undefined;
  const search = new URLSearchParams(query ?? '');
  const headers = new Set(request.headers.map(({ name }) => name.toLowerCase()));
  const cookies = new Set(request.headers.filter(({ name }) => name.toLowerCase() === 'cookie').flatMap(({ value }) => cookieNames(value)));
  return operation.parameters
    .filter((parameter) => {
      if (parameter.in === 'path') return (inPath?.[parameter.name] ?? '') !== '';
      if (parameter.in === 'query') return search.has(parameter.name);
      if (parameter.in === 'header') return headers.has(parameter.name.toLowerCase());
      return cookies.has(parameter.name);
    })
    .map((parameter) => `${parameter.in}.${parameter.name}`);
}

/** The body a request carried, as a value: the case's, or its JSON or form text read back. */
function sentBody({ request, bodyValue }: CoveredExchange): unknown {
  if (bodyValue !== undefined) return bodyValue;
  if (!request.body) return undefined;
  const type = request.headers.find(({ name }) => name.toLowerCase() === 'content-type')?.value ?? '';
  const text = request.body.toString('utf8');
  if (isJsonMediaType(mediaTypeEssence(type))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  if (mediaTypeEssence(type) === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  return undefined;
}

/**
 * What a run's requests and answers covered of the spec, per operation: the operation exercised,
 * each parameter sent with a value, each top-level body property present in a body sent, each
 * documented response (status and media type) received, and so held to the contract. Only the
 * requests made for the operation count (valid, invalid, without credentials, link follows); other
 * methods of its path, OPTIONS, HEAD and paths the spec does not have are no operation's.
 */
export class SchemaCoverage {
  private readonly seen = new Map<string, Set<string>>();
  private readonly exercised = new Set<string>();

  constructor(private readonly api: ApiModel) {}

  observe(exchange: CoveredExchange): void {
    const { kind, operation, response } = exchange;
    if (!OWN_KINDS.has(kind)) return;
    let seen = this.seen.get(operation.id);
    if (!seen) this.seen.set(operation.id, (seen = new Set()));
    for (const key of sentParameters(exchange, this.api.basePath)) seen.add(`parameter ${key}`);
    const body = sentBody(exchange);
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      for (const name of Object.keys(body)) seen.add(`property ${name}`);
    }
    const key = responseKey(operation, response);
    if (key !== undefined) seen.add(`response ${key}`);
    const valid = kind === 'positive' || kind === 'link';
    const success = response.status >= 200 && response.status < 300;
    if (valid && (success || !documentsSuccessStatus(operation))) this.exercised.add(operation.id);
  }

  /** The report over the operations a run was pointed at (those it could not test count as not covered). */
  report(operations: OperationModel[]): SchemaCoverageReport {
    const rows = operations.map((operation): OperationCoverage => {
      const seen = this.seen.get(operation.id) ?? new Set<string>();
      const split = (prefix: string, keys: string[]): CoverageItems => ({
        covered: keys.filter((key) => seen.has(`${prefix} ${key}`)),
        missing: keys.filter((key) => !seen.has(`${prefix} ${key}`)),
      });
      return {
        operation: operation.id,
        method: operation.method.toUpperCase(),
        path: operation.path,
        exercised: this.exercised.has(operation.id),
        parameters: split('parameter', parameterKeys(operation)),
        bodyProperties: split('property', bodyPropertyKeys(operation)),
        responses: split('response', responseKeys(operation)),
      };
    });
    return { operations: rows, totals: totalsOf(rows) };
  }
}

/** Whether an operation documents a success a valid request can get (2xx, or `default`). */
function documentsSuccessStatus(operation: OperationModel): boolean {
  return operation.responses.some(({ status }) => isSuccessStatus(status) || status.toLowerCase() === 'default');
}

function totalsOf(rows: OperationCoverage[]): SchemaCoverageReport['totals'] {
  const sum = (kind: Exclude<CoverageKind, 'operations'>) =>
    countOf(
      rows.reduce((total, row) => total + row[kind].covered.length, 0),
      rows.reduce((total, row) => total + row[kind].covered.length + row[kind].missing.length, 0),
    );
  const operations = countOf(rows.filter(({ exercised }) => exercised).length, rows.length);
  const parameters = sum('parameters');
  const bodyProperties = sum('bodyProperties');
  const responses = sum('responses');
  const all = [operations, parameters, bodyProperties, responses];
  const overall = countOf(
    all.reduce((total, { covered }) => total + covered, 0),
    all.reduce((total, { total: count }) => total + count, 0),
  );
  return { operations, parameters, bodyProperties, responses, overall };
}
