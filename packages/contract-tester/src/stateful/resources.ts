import { parseExactJson } from '../generate/json-text.js';
import { valueFits } from './inferred-links.js';
import { linksFrom, type Exchange, type LinkContext } from './links.js';
import { matchPathTemplate, valueAtPointer } from '../spec/openapi.js';
import { documentedResponse, type ApiModel, type OperationModel } from '../spec/model.js';
import { percentEncode, parameterText, splitTarget } from '../generate/requests.js';

/** What the run knows of one resource it created (or made with a PUT), and what became of it. */
export interface Resource {
  /** The path template of the resource itself: /pets/{petId}. */
  template: string;
  /** Its path parameters, percent-encoded as in a path. */
  parameters: Record<string, string>;
  /** Its path below the origin: /v1/pets/5. */
  path: string;
  /** The operation that made it. */
  createdBy: string;
  /** What it answered when it was made. */
  created: unknown;
  state: 'present' | 'deleted' | 'uncertain';
  /**
   * What the last write of it answered (the create, a PUT or a PATCH) and the schema that answer is
   * of, when the write answered the resource; `unknown` after a write whose effect the run cannot know.
   */
  last: { body: unknown; schemaPointer: string | undefined } | 'unknown';
  /**
   * How many writes of it (or below it) answered 2xx, its making included: a link seen before the
   * last of them may carry a precondition (`If-Match`) that no longer holds.
   */
  writes: number;
}

export const WRITES = new Set(['PUT', 'PATCH', 'POST', 'DELETE']);

function pathParameterNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** The values of a path's parameters as they appear in it (still percent-encoded). */
function encodedParameters(template: string, path: string): Record<string, string> | undefined {
  const decoded = matchPathTemplate(template, path);
  if (!decoded) return undefined;
  return Object.fromEntries(Object.entries(decoded).map(([name, value]) => [name, percentEncode(value)]));
}

/**
 * The templates where what a create at `create.path` makes lives: `/pets/{petId}` for `POST /pets`
 * (a path one parameter longer, the start of every path below it), and the targets of its links.
 */
export function resourceTemplates(api: ApiModel, create: OperationModel): string[] {
  const templates = new Set<string>();
  const prefix = `${create.path.replace(/\/$/, '')}/{`;
  for (const { path } of api.operations) {
    if (!path.startsWith(prefix)) continue;
    const end = path.indexOf('}', prefix.length);
    templates.add(path.slice(0, end + 1));
  }
  for (const response of create.responses) {
    for (const link of response.links) {
      const target = api.operations.find(({ id }) => id === link.targetOperationId);
      if (target && target.path !== create.path && pathParameterNames(target.path).length) templates.add(target.path);
    }
  }
  return [...templates];
}

/** The operations that act on a resource at a template: those whose path is it or below it, and updates sent to its collection that name it. */
export function operationsOn(api: ApiModel, template: string): OperationModel[] {
  return api.operations.filter(
    (operation) =>
      operation.path === template || operation.path.startsWith(`${template}/`) || bodyIdentity(operation, template) !== undefined,
  );
}

/** The collection path of a resource template: /pet for /pet/{petId}. */
function collectionOf(template: string): string {
  return template.slice(0, template.lastIndexOf('/')) || '/';
}

/**
 * The body property that names the resource, for an update sent to the collection rather than to
 * the resource's own path (PUT /pet with the pet's id in the body): the path parameter's name, or
 * `id`. Undefined for any other operation.
 */
export function bodyIdentity(operation: OperationModel, template: string): string | undefined {
  if (!['put', 'patch'].includes(operation.method) || operation.path !== collectionOf(template)) return undefined;
  const [name] = pathParameterNames(template.slice(collectionOf(template).length));
  const properties = operation.body?.media.find(({ kind }) => kind === 'json')?.schema['properties'] as Record<string, unknown> | undefined;
  if (!properties || !name) return undefined;
  return name in properties ? name : 'id' in properties ? 'id' : undefined;
}

/** Whether every path parameter of an operation is one of the resource's: its request names nothing the run made up. */
export function wholly(operation: OperationModel, resource: Resource): boolean {
  return pathParameterNames(operation.path).every((name) => name in resource.parameters);
}

/**
 * The resources a run (or one sequence of it) created, learned from the answers to its creates (a
 * Location header, the create's links, an id in the body named as the path's parameter), and
 * followed through every later write: an update changes what a read must return, a DELETE removes
 * it, a PUT makes it again.
 */
export class ResourceLedger {
  readonly resources: Resource[] = [];

  constructor(
    private readonly api: ApiModel,
    private readonly context: LinkContext,
  ) {}

  /** The resource a path is, or is below (a sub-resource path), if the run knows it. */
  addressed(path: string): Resource | undefined {
    const bare = splitTarget(path)[0];
    return [...this.resources].reverse().find((resource) => bare === resource.path || bare.startsWith(`${resource.path}/`));
  }

  /** Known resources an operation can act on: it needs no path parameter they do not give. */
  candidates(operation: OperationModel): Resource[] {
    const names = pathParameterNames(operation.path);
    if (!names.length) return this.resources.filter((resource) => bodyIdentity(operation, resource.template) !== undefined);
    // A path below the resource's takes its parameters; those of its own (a square's row) are made.
    return this.resources.filter(
      (resource) =>
        (operation.path === resource.template || operation.path.startsWith(`${resource.template}/`)) &&
        Object.keys(resource.parameters).every((name) => names.includes(name)),
    );
  }

  private resourceAt(template: string, parameters: Record<string, string>, exchange: Exchange): Resource {
    const path = this.api.basePath + template.replace(/\{([^}]+)\}/g, (_, name: string) => parameters[name] ?? '');
    const existing = this.resources.find((resource) => resource.path === path);
    const body = exchange.response.body;
    const last = { body, schemaPointer: documentedResponse(exchange.operation, exchange.response.status)?.schemaPointer };
    if (existing) {
      // A create answering a resource the run knows replays an earlier answer (an idempotent
      // retry): what the resource is now stays as the run last saw it, unless it was deleted.
      if (existing.state === 'deleted' || exchange.request.method.toUpperCase() === 'PUT')
        Object.assign(existing, { state: 'present', last, created: body, writes: existing.writes + 1 });
      return existing;
    }
    const resource: Resource = {
      template,
      parameters,
      path,
      createdBy: exchange.operation.id,
      created: body,
      state: 'present',
      last,
      writes: 1,
    };
    this.resources.push(resource);
    return resource;
  }

  /** What a create's answer says it made. */
  private learn(exchange: Exchange): Resource[] {
    const { api } = this;
    const learned: Resource[] = [];
    const add = (template: string, parameters: Record<string, string> | undefined) => {
      if (!parameters || Object.values(parameters).some((value) => value === '')) return;
      const resource = this.resourceAt(template, parameters, exchange);
      if (!learned.includes(resource)) learned.push(resource);
    };
    const location = exchange.response.headers['location'];
    if (typeof location === 'string') {
      const url = new URL(location, this.context.origin + exchange.request.target);
      if (url.origin === this.context.origin && url.pathname.startsWith(api.basePath)) {
        const below = url.pathname.slice(api.basePath.length);
        for (const template of new Set(api.operations.map(({ path }) => path))) add(template, encodedParameters(template, below));
      }
    }
    for (const step of linksFrom(api, exchange, { origin: this.context.origin, credentialsFor: this.context.credentialsFor })) {
      // An inferred link leads to the resource itself, whatever its method; a declared one may lead below it.
      if (typeof step === 'string' || (step.target.method !== 'get' && !step.link.inferred)) continue;
      const below = splitTarget(step.request.target)[0].slice(api.basePath.length);
      add(step.target.path, encodedParameters(step.target.path, below));
    }
    if (!learned.length) {
      const body = exchange.response.body;
      for (const template of resourceTemplates(api, exchange.operation)) {
        const [name, ...others] = pathParameterNames(template.slice(exchange.operation.path.length));
        if (!name || others.length || body === null || typeof body !== 'object') continue;
        const record = body as Record<string, unknown>;
        const parameter = operationsOn(api, template)
          .flatMap(({ parameters }) => parameters)
          .find((candidate) => candidate.in === 'path' && candidate.name === name);
        const value = [record[name], record['id']].find((candidate) => valueFits(candidate, parameter?.schema ?? {}));
        if (value === undefined) continue;
        const parameters = {
          ...encodedParameters(exchange.operation.path, splitTarget(exchange.request.target)[0].slice(api.basePath.length)),
        };
        add(template, { ...parameters, [name]: percentEncode(parameterText(value)) });
      }
    }
    return learned;
  }

  /**
   * Takes in an exchange (or a request that got no answer): a create's resources, and what a write
   * did to the resource it addressed. Returns the resources a create made.
   */
  observe(exchange: Exchange | { operation: OperationModel; request: Exchange['request']; response?: undefined }): Resource[] {
    const { request, response, operation } = exchange;
    const method = request.method.toUpperCase();
    if (!WRITES.has(method)) return [];
    const resource = this.addressed(request.target);
    if (!response || response.status >= 500) {
      // The write may or may not have happened.
      if (resource)
        Object.assign(resource, method === 'DELETE' ? { state: 'uncertain' } : { last: 'unknown' }, { writes: resource.writes + 1 });
      return [];
    }
    if (response.status < 200 || response.status > 299) return [];
    const full = exchange;
    const named = resource ? undefined : this.namedInBody(full);
    if (named) {
      named.writes += 1;
      named.last =
        response.body !== undefined
          ? { body: response.body, schemaPointer: documentedResponse(operation, response.status)?.schemaPointer }
          : 'unknown';
      return [];
    }
    if (method === 'POST' && !resource) return this.learn(full);
    if (!resource) {
      // A PUT to a path of its own makes the resource there.
      const below = splitTarget(request.target)[0].slice(this.api.basePath.length);
      const parameters = method === 'PUT' ? encodedParameters(operation.path, below) : undefined;
      return parameters && Object.keys(parameters).length ? [this.resourceAt(operation.path, parameters, full)] : [];
    }
    resource.writes += 1;
    const exact = splitTarget(request.target)[0] === resource.path;
    if (method === 'DELETE') {
      if (exact)
        for (const below of this.resources.filter(({ path }) => path === resource.path || path.startsWith(`${resource.path}/`)))
          below.state = 'deleted';
      else resource.last = 'unknown';
      return [];
    }
    if (method === 'PUT' && exact) resource.state = 'present';
    const schemaPointer = documentedResponse(operation, response.status)?.schemaPointer;
    resource.last =
      exact && (method === 'PUT' || method === 'PATCH') && response.body !== undefined ? { body: response.body, schemaPointer } : 'unknown';
    return [];
  }

  /** The resource an update sent to the collection names in its body, if the run knows it. */
  private namedInBody(exchange: Exchange): Resource | undefined {
    let body: unknown;
    try {
      body = exchange.request.body && parseExactJson(exchange.request.body.toString('utf8'));
    } catch {
      return undefined;
    }
    if (body === null || typeof body !== 'object') return undefined;
    return this.resources.find((resource) => {
      const property = bodyIdentity(exchange.operation, resource.template);
      const [name] = pathParameterNames(resource.template).slice(-1);
      const value = property === undefined ? undefined : (body as Record<string, unknown>)[property];
      return value !== undefined && name !== undefined && percentEncode(parameterText(value)) === resource.parameters[name];
    });
  }

  /** The value at a JSON pointer of what a resource last answered (or what it answered when made). */
  identityOf(resource: Resource, pointer: string): unknown {
    const body = resource.last !== 'unknown' ? resource.last.body : resource.created;
    return valueAtPointer(body, pointer);
  }
}

/**
 * Whether a resource names one the run deleted: a member of its body with the name and the value of
 * a deleted resource's path parameter (an order's `petId` of a deleted `/pets/{petId}`).
 */
export function namesDeleted(resources: readonly Resource[], resource: Resource): boolean {
  const body = resource.created;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const members = body as Record<string, unknown>;
  return resources.some(
    (other) =>
      other !== resource &&
      other.state === 'deleted' &&
      Object.entries(other.parameters).some(([name, value]) => name in members && String(members[name]) === decodeURIComponent(value)),
  );
}
