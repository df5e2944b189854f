import { findLink } from './link-header.js';
import { exactPathPattern, matchPathTemplate, valueAtPointer } from './openapi.js';
import type { HttpResponse } from './http-client.js';
import type { JsonValue } from './json-text.js';
import { buildRequest, parameterText, percentEncode, setParameter, type RequestParts, type TestRequest } from './requests.js';
import type { ApiModel, LinkModel, OperationModel } from './spec-model.js';
import { splitTarget } from './request-variants.js';

/** A request and the answer it got, as links read them. */
export interface Exchange {
  operation: OperationModel;
  request: TestRequest;
  response: HttpResponse;
}

/** A link ready to follow: the target operation's request, made from a response. */
export interface LinkStep {
  link: LinkModel;
  from: Exchange;
  target: OperationModel;
  request: TestRequest;
}

/** The parameters of a request as its operation names them: path (from the template) and query. */
function requestParameters(operation: OperationModel, basePath: string, request: TestRequest) {
  const [path, query] = splitTarget(request.target);
  return { path: matchPathTemplate(operation.path, path.slice(basePath.length)) ?? {}, query: new URLSearchParams(query ?? '') };
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Evaluates an OpenAPI runtime expression (`$response.body#/id`, `$request.path.petId`,
 * `$statusCode`, ...) or a string with `{$…}` expressions embedded; anything else is a constant.
 */
export function evaluateExpression(expression: unknown, exchange: Exchange, basePath: string): unknown {
  if (typeof expression !== 'string') return expression;
  if (expression.startsWith('$')) return evaluateOne(expression, exchange, basePath);
  if (!expression.includes('{$')) return expression;
  return expression.replace(/\{(\$[^}]+)\}/g, (_, inner: string) => parameterText(evaluateOne(inner, exchange, basePath)));
}

function evaluateOne(expression: string, { operation, request, response }: Exchange, basePath: string): unknown {
  const body = (source: 'request' | 'response', pointer: string) => {
    const parsed: unknown = source === 'response' ? response.body : request.body && JSON.parse(request.body.toString('utf8'));
    return valueAtPointer(parsed, pointer);
  };
  if (expression === '$statusCode') return response.status;
  if (expression === '$method') return request.method;
  if (expression === '$url') return request.target;
  const [, source, part, rest] = /^\$(request|response)\.(path|query|header|body)(.*)$/.exec(expression) ?? [];
  if (!source) throw new Error(`unsupported runtime expression ${expression}`);
  if (part === 'body') return body(source as 'request' | 'response', rest!.replace(/^#/, ''));
  const name = rest!.replace(/^\./, '');
  if (source === 'response') return part === 'header' ? headerValue(response.headers, name) : undefined;
  const parameters = requestParameters(operation, basePath, request);
  if (part === 'path') return parameters.path[name];
  if (part === 'query') return parameters.query.get(name) ?? undefined;
  return request.headers.find((header) => header.name.toLowerCase() === name.toLowerCase())?.value;
}

/** An example the spec gives a parameter, for a required one a link leaves unset. */
function exampleOf(operation: OperationModel, name: string): unknown {
  const parameter = operation.parameters.find((candidate) => candidate.name === name)!;
  const schema = parameter.schema;
  return schema['default'] ?? (Array.isArray(schema['examples']) ? (schema['examples'] as unknown[])[0] : undefined);
}

/** The link's target request from its `parameters` (and `requestBody`) evaluated against the exchange. */
function parameterLinkStep(api: ApiModel, link: LinkModel, from: Exchange, target: OperationModel): LinkStep | string {
  let parts: RequestParts = {
    method: target.method.toUpperCase(),
    path: api.basePath + target.path,
    pathParameters: {},
    query: [],
    headers: [],
    credentials: { kind: 'key', schemes: target.credentials },
  };
  const given = new Map(
    Object.entries(link.parameters).map(([key, expression]) => [key.replace(/^(path|query|header|cookie)\./, ''), expression]),
  );
  for (const parameter of target.parameters) {
    const value = given.has(parameter.name)
      ? evaluateExpression(given.get(parameter.name), from, api.basePath)
      : parameter.required
        ? exampleOf(target, parameter.name)
        : undefined;
    if (value === undefined) {
      if (parameter.required) return `link ${link.name} leaves ${parameter.name} of ${target.id} without a value`;
      continue;
    }
    const text = parameterText(value);
    parts = setParameter(parts, parameter, parameter.in === 'header' ? text : percentEncode(text));
  }
  if (link.requestBody !== undefined && target.body) {
    parts.body = { mediaType: target.body.mediaTypes[0]!, value: evaluateExpression(link.requestBody, from, api.basePath) as JsonValue };
  }
  return { link, from, target, request: buildRequest(parts) };
}

/**
 * The link's target request from the URL of an RFC 8288 header entry, followed unchanged. It must
 * stay on the deployment's origin and lead to the link's operation with parameters it has.
 */
function headerLinkStep(
  api: ApiModel,
  link: LinkModel,
  from: Exchange,
  target: OperationModel,
  origin: string,
): LinkStep | string | undefined {
  const header = link.header!;
  const entry = findLink(headerValue(from.response.headers, header.name), header.rel);
  if (!entry) return undefined;
  const url = new URL(entry.href, origin + from.request.target);
  if (url.origin !== origin) return `${header.name} rel="${header.rel}" leads off the deployment, to ${url.origin}`;
  const below = url.pathname.slice(api.basePath.length);
  if (!url.pathname.startsWith(api.basePath) || !exactPathPattern(target.path).test(below)) {
    return `${header.name} rel="${header.rel}" leads to ${url.pathname}, which is not ${target.id} (${target.path})`;
  }
  const known = new Set(target.parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name));
  const unknown = [...url.searchParams.keys()].filter((name) => !known.has(name));
  if (unknown.length) return `${header.name} rel="${header.rel}" carries ${unknown.join(', ')}, which ${target.id} does not take`;
  const request: TestRequest = {
    method: target.method.toUpperCase(),
    target: url.pathname + url.search,
    headers: [],
    credentials: { kind: 'key', schemes: target.credentials },
  };
  return { link, from, target, request };
}

/**
 * The links the spec documents for the exchange's response, made into requests. A link that cannot
 * be made (a header entry leading elsewhere) is a string saying why.
 */
export function linksFrom(api: ApiModel, exchange: Exchange, origin: string): Array<LinkStep | string> {
  const status = String(exchange.response.status);
  const response = exchange.operation.responses.find((candidate) => candidate.status === status);
  const steps: Array<LinkStep | string> = [];
  for (const link of response?.links ?? []) {
    const target = api.operations.find(({ id }) => id === link.targetOperationId)!;
    const step = link.header ? headerLinkStep(api, link, exchange, target, origin) : parameterLinkStep(api, link, exchange, target);
    if (step !== undefined) steps.push(step);
  }
  return steps;
}

/** Optional parameters whose values only links give (`x-link-header` supplies), by operation. */
export function linkSuppliedParameters(api: ApiModel, operation: OperationModel): Set<string> {
  const supplied = new Set<string>();
  for (const link of api.operations.flatMap(({ responses }) => responses.flatMap(({ links }) => links))) {
    if (link.targetOperationId !== operation.id) continue;
    for (const name of link.header?.supplies ?? []) {
      if (operation.parameters.some((parameter) => parameter.name === name && !parameter.required)) supplied.add(name);
    }
  }
  return supplied;
}
