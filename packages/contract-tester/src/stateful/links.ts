import type { RequestBody } from '../generate/bodies.js';
import { parseExactJson, type JsonValue } from '../generate/json-text.js';
import {
  buildRequest,
  emptyParts,
  headerText,
  parameterText,
  percentEncode,
  setParameter,
  splitTarget,
  type RequestCredentials,
  type TestRequest,
} from '../generate/requests.js';
import type { HttpResponse } from '../http/http-client.js';
import { findLink } from 'web-linking';
import { LOCATION_EXPRESSION } from './inferred-links.js';
import { exactPathPattern, isJsonMediaType, matchPathTemplate, valueAtPointer } from '../spec/openapi.js';
import { type ApiModel, type LinkModel, type OperationModel } from '../spec/model.js';

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

/** What a link needs from the run to make its target request: credentials, and a body when the link gives none. */
export interface LinkContext {
  origin: string;
  credentialsFor: (operation: OperationModel) => RequestCredentials;
  bodyFor?: (operation: OperationModel) => RequestBody | undefined;
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

/**
 * A link's `requestBody`: a runtime expression, or a literal whose strings may be expressions, so a
 * link can fill one member of the body (`{ petId: $response.body#/id, quantity: 1 }`), as
 * Schemathesis reads it; the members it does not name are the literal's.
 */
export function evaluateRequestBody(value: unknown, exchange: Exchange, basePath: string): unknown {
  if (Array.isArray(value)) return value.map((item) => evaluateRequestBody(item, exchange, basePath));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, evaluateRequestBody(member, exchange, basePath)]));
  return evaluateExpression(value, exchange, basePath);
}

function evaluateOne(expression: string, { operation, request, response }: Exchange, basePath: string): unknown {
  const body = (source: 'request' | 'response', pointer: string) => {
    let parsed: unknown = response.body;
    if (source === 'request') {
      try {
        parsed = request.body && parseExactJson(request.body.toString('utf8'));
      } catch {
        return undefined;
      }
    }
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

/** The last segment of a URL's path, decoded: the id a `Location` names, wherever it says the resource is. */
function lastSegment(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const segment = new URL(url, 'http://location.invalid').pathname.split('/').filter(Boolean).at(-1);
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** An example the spec gives a parameter, for a required one a link leaves unset. */
function exampleOf(operation: OperationModel, name: string): unknown {
  const parameter = operation.parameters.find((candidate) => candidate.name === name)!;
  return parameter.schema['default'] ?? parameter.examples[0];
}

/** The link's target request from its `parameters` and `requestBody` evaluated against the exchange (a body made when it gives none). */
function parameterLinkStep(
  api: ApiModel,
  link: LinkModel,
  from: Exchange,
  target: OperationModel,
  context: LinkContext,
): LinkStep | undefined {
  let parts = emptyParts(target, api.basePath, context.credentialsFor(target));
  const given = new Map(
    Object.entries(link.parameters).map(([key, expression]) => [key.replace(/^(path|query|header|cookie)\./, ''), expression]),
  );
  for (const parameter of target.parameters) {
    const expression = given.get(parameter.name);
    let value = given.has(parameter.name)
      ? evaluateExpression(expression, from, api.basePath)
      : parameter.required
        ? exampleOf(target, parameter.name)
        : undefined;
    if (link.inferred === 'location' && expression === LOCATION_EXPRESSION) value = lastSegment(value);
    // A value the response does not have: nothing to follow (the response's schema says whether it must).
    if (value === undefined || value === null) {
      if (parameter.required) return undefined;
      continue;
    }
    const text = parameterText(value);
    parts = setParameter(parts, parameter, parameter.in === 'header' || parameter.in === 'cookie' ? headerText(text) : percentEncode(text));
  }
  if (link.requestBody !== undefined && target.body) {
    const json = target.body.media.find(({ mediaType }) => isJsonMediaType(mediaType)) ?? target.body.media[0]!;
    parts.body = { mediaType: json.mediaType, value: evaluateRequestBody(link.requestBody, from, api.basePath) as JsonValue };
  } else if (target.body) {
    const body = context.bodyFor?.(target);
    if (body) parts.body = body;
    else if (target.body.required) return undefined;
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
  context: LinkContext,
): LinkStep | string | undefined {
  const { origin } = context;
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
    credentials: context.credentialsFor(target),
  };
  return { link, from, target, request };
}

/**
 * The links the spec documents for the exchange's response, made into requests. A link that cannot
 * be made (a header entry leading elsewhere) is a string saying why.
 */
export function linksFrom(api: ApiModel, exchange: Exchange, context: LinkContext): Array<LinkStep | string> {
  const status = String(exchange.response.status);
  const response = exchange.operation.responses.find(
    (candidate) => candidate.status.toUpperCase() === status || candidate.status.toUpperCase() === `${status[0]}XX`,
  );
  const steps: Array<LinkStep | string> = [];
  for (const link of response?.links ?? []) {
    const target = api.operations.find(({ id }) => id === link.targetOperationId)!;
    const step = link.header
      ? headerLinkStep(api, link, exchange, target, context)
      : parameterLinkStep(api, link, exchange, target, context);
    if (step !== undefined) steps.push(step);
  }
  return steps;
}

/** Optional parameters whose values only links give (`x-link-header` supplies), by operation. */
const linksByApi = new WeakMap<ApiModel, Map<string | undefined, LinkModel[]>>();

/**
 * The links of an API's responses that lead to an operation, indexed once per API: planning asks
 * for every operation, and a spec of thousands has as many links. The API must not change after
 * the first call (the run infers its links before planning).
 */
function linksTo(api: ApiModel, operationId: string): LinkModel[] {
  let index = linksByApi.get(api);
  if (!index) {
    index = new Map();
    for (const link of api.operations.flatMap(({ responses }) => responses.flatMap(({ links }) => links))) {
      const links = index.get(link.targetOperationId);
      if (links) links.push(link);
      else index.set(link.targetOperationId, [link]);
    }
    linksByApi.set(api, index);
  }
  return index.get(operationId) ?? [];
}

export function linkSuppliedParameters(api: ApiModel, operation: OperationModel): Set<string> {
  const supplied = new Set<string>();
  for (const link of linksTo(api, operation.id)) {
    for (const name of link.header?.supplies ?? []) {
      if (operation.parameters.some((parameter) => parameter.name === name && !parameter.required)) supplied.add(name);
    }
  }
  return supplied;
}
