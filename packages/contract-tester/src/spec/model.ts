import { checkDeadline, rethrowDeadline } from '../deadline.js';
import { schemaFor } from './directions.js';
import { polymorphicChildren, withDiscriminator, withInheritedDiscriminator } from './discriminator.js';
import {
  basePathOf,
  escapePointerToken,
  isJsonMediaType,
  listOperations,
  pointerOfRef,
  resolveRef,
  resolveRefAt,
  type HttpMethod,
  type OpenApiDocument,
  type OperationEntry,
  type SchemaObject,
} from './openapi.js';

/** A JSON Schema with every `$ref` replaced by what it names (recursion cut, see inlineSchema). */
export type Schema = SchemaObject;

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ParameterModel {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: Schema;
  /** Example values the spec gives (`example`, `examples`, the schema's), in order. */
  examples: unknown[];
  /** `style: form` (the default) with `explode: true` (the default): an array as repeated name=value pairs. */
  explode: boolean;
  /**
   * `x-ignored-if-invalid: true`: the server ignores a value it cannot use rather than refusing the
   * request (a request id, a trace context), so no value of it breaks the contract.
   */
  ignoredIfInvalid?: boolean;
  /**
   * `allowEmptyValue: true` (query only): `name=` is a value. Without it, OpenAPI (3.0.3 and 3.1
   * §4.8.12.1) gives no way to send an empty value, and servers (Prism among them) read `name=`
   * as the parameter left out: an empty value is then neither a valid one nor a broken one.
   */
  allowEmptyValue?: boolean;
}

/** How the tester makes a request body of a media type, if it can. */
export type BodyKind = 'json' | 'form' | 'multipart' | 'binary' | 'text';

export interface MediaModel {
  mediaType: string;
  /** Undefined for a media type the tester cannot make (XML, say). */
  kind?: BodyKind;
  schema: Schema;
  /** The spec's examples of a body of this media type. */
  examples: unknown[];
}

export interface BodyModel {
  required: boolean;
  /** Every media type the operation takes, in the spec's order. */
  media: MediaModel[];
}

/** A link to follow from a response: OpenAPI's Link Object, or one carried by an RFC 8288 header. */
export interface LinkModel {
  name: string;
  targetOperationId: string;
  /** Target parameters (`petId`, or `path.petId`) to runtime expressions or constants. */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
  /**
   * `x-link-header`: the target is the URL of the entry with this relation in this header (a runtime
   * expression cannot reach inside a header's value), and `supplies` names the target's parameters
   * whose values only such a URL gives.
   */
  header?: { name: string; rel: string; supplies: string[] };
  /**
   * Set on a link the spec does not declare, inferred by the tester from the schemas: the id the
   * target's path parameter takes comes from the response's body, or from the last segment of its
   * `Location` header.
   */
  inferred?: 'body' | 'location';
}

export interface ResponseModel {
  status: string;
  /** Where the spec's JSON schema of this response's body lives (after `$ref`s), or undefined without one. */
  schemaPointer?: string;
  schema?: Schema;
  /** The media types documented for the body. */
  mediaTypes: string[];
  links: LinkModel[];
}

/** A security scheme as the tester can fill it. */
export type SchemeModel =
  | { type: 'http'; scheme: string }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string }
  | { type: 'oauth2' | 'openIdConnect' | 'mutualTLS' | 'unknown' };

/** One security requirement: every scheme it names must be filled (AND). */
export type SecurityRequirement = Array<{ name: string; scheme: SchemeModel }>;

export interface SecurityModel {
  /** The alternatives (OR); none when the operation needs no credentials. */
  alternatives: SecurityRequirement[];
  /** An empty requirement `{}` among them: credentials are optional. */
  optional: boolean;
}

export interface OperationModel {
  id: string;
  method: HttpMethod;
  /** Path template as written in the spec, e.g. /pets/{petId}. */
  path: string;
  pointer: string;
  tags: string[];
  deprecated: boolean;
  parameters: ParameterModel[];
  body?: BodyModel;
  security: SecurityModel;
  responses: ResponseModel[];
  /** Why the tester cannot send valid requests of it, if it cannot (a parameter style it does not write, say). */
  unsupported?: string;
}

export interface ApiModel {
  document: OpenApiDocument;
  basePath: string;
  operations: OperationModel[];
  /** What the tester reads from the spec but will not use, and why (a link to another document, say). */
  warnings: string[];
  /** `x-max-request-body-bytes`, when the spec sets one. */
  maxRequestBodyBytes?: number;
  /** `x-max-request-target-bytes`, when the spec sets one: longer targets are no operation's concern. */
  maxRequestTargetBytes?: number;
}

interface ParameterObject {
  name: string;
  in: ParameterLocation;
  required?: boolean;
  schema?: Schema;
  style?: string;
  explode?: boolean;
  allowEmptyValue?: boolean;
  content?: Record<string, { schema?: Schema }>;
  example?: unknown;
  examples?: Record<string, unknown>;
  'x-ignored-if-invalid'?: boolean;
}

interface MediaTypeObject {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, unknown>;
}

interface RequestBodyObject {
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

interface LinkObject {
  operationId?: string;
  operationRef?: string;
  parameters?: Record<string, unknown>;
  requestBody?: unknown;
  'x-link-header'?: { header?: unknown; rel?: unknown; supplies?: unknown };
}

interface ResponseObject {
  content?: Record<string, { schema?: Schema }>;
  links?: Record<string, LinkObject>;
}

interface SecuritySchemeObject {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

/** Marks where a recursive schema was cut: generation never goes there (see valid-values). */
export const RECURSION_CUT = 'x-recursion-cut';

/** How many times one `$ref` may be expanded inside itself before the expansion stops. */
const RECURSION_DEPTH = 2;

/**
 * Whether a schema gives a `default`: the value the server assumes when none is sent (OpenAPI's
 * Schema Object), so a request without it may be taken even where it is required (Azure's
 * `api-version`), and leaving it out is no fault the server must refuse.
 */
export function hasDefault(schema: unknown): boolean {
  return schema !== null && typeof schema === 'object' && 'default' in schema;
}

export function isRecursionCut(schema: unknown): boolean {
  return schema !== null && typeof schema === 'object' && RECURSION_CUT in schema;
}

/**
 * How many schema objects one inlined copy may hold. Schemas that refer to each other a lot (a
 * payments or office API's hundreds of entities) expand exponentially even at two rounds per
 * `$ref`: past this, every further `$ref` is cut as a recursive one is.
 */
export const INLINE_BUDGET = 5000;

/**
 * A copy of a schema with its `$ref`s replaced by their targets (sibling keywords kept, as OpenAPI
 * 3.1 allows). A recursive schema is expanded a few levels deep, then cut: the cut is an empty
 * schema marked RECURSION_CUT, which generation leaves out (an optional property, an empty array,
 * the other branch of a oneOf). A copy that grows past INLINE_BUDGET objects is cut the same way at
 * each further `$ref`. Validation of responses uses the spec itself, never this copy.
 */
const sharedCopies = new WeakMap<OpenApiDocument, Map<string, Schema>>();
const directedCopies = { request: new WeakMap<Schema, Schema>(), response: new WeakMap<Schema, Schema>() };

/** schemaFor, once per shared copy: the operations that share a component share its directed copy too. */
function directed(direction: 'request' | 'response', schema: Schema): Schema {
  let copy = directedCopies[direction].get(schema);
  if (!copy) directedCopies[direction].set(schema, (copy = schemaFor(direction, schema)));
  return copy;
}

export function inlineSchema(
  document: OpenApiDocument,
  schema: unknown,
  refsInUse: string[] = [],
  budget = { left: INLINE_BUDGET },
  inAllOf = false,
): Schema {
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(document, item, refsInUse, budget, inAllOf)) as unknown as Schema;
  if (schema === null || typeof schema !== 'object') return schema as Schema;
  const { $ref, ...siblings } = schema as Schema;
  if (typeof $ref === 'string' && !inAllOf && !Object.keys(siblings).length) {
    // A polymorphic parent on its own is one of the schemas its discriminator names (as an allOf
    // part of one of them, it is that schema's base, read as it is).
    const children = polymorphicChildren(document, $ref, resolveRef(document, { $ref }));
    if (children.length) {
      if (budget.left <= 0 || refsInUse.filter((ref) => ref === $ref).length >= RECURSION_DEPTH) return { [RECURSION_CUT]: $ref };
      return { oneOf: children.map((child) => inlineSchema(document, { $ref: child }, [...refsInUse, $ref], budget)) };
    }
  }
  if (typeof $ref === 'string' && !refsInUse.length && !Object.keys(siblings).length) {
    // A component outside any other is the same copy wherever it is used: made once per document
    // (the copies are only read), so that thousands of operations sharing an entity share its copy.
    let copies = sharedCopies.get(document);
    if (!copies) sharedCopies.set(document, (copies = new Map<string, Schema>()));
    let copy = copies.get($ref);
    if (!copy) {
      const target = resolveRef(document, { $ref });
      copies.set($ref, (copy = withInheritedDiscriminator(document, $ref, target, inlineSchema(document, target, [$ref]))));
    }
    return copy;
  }
  if (typeof $ref === 'string') {
    checkDeadline();
    if (budget.left <= 0 || refsInUse.filter((ref) => ref === $ref).length >= RECURSION_DEPTH) return { [RECURSION_CUT]: $ref };
    const target = resolveRef(document, { $ref });
    const inlined = withInheritedDiscriminator(document, $ref, target, inlineSchema(document, target, [...refsInUse, $ref], budget));
    return Object.keys(siblings).length ? { ...inlined, ...inlineSchema(document, siblings, refsInUse, budget) } : inlined;
  }
  budget.left -= 1;
  const copy: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    // Examples and the like are data, not schemas: copied as they are.
    // Extensions are their tools' (a `$ref` in one is not the tester's to follow).
    copy[keyword] =
      keyword === 'examples' ||
      keyword === 'example' ||
      keyword === 'const' ||
      keyword === 'enum' ||
      keyword === 'default' ||
      keyword.startsWith('x-')
        ? value
        : inlineSchema(document, value, refsInUse, budget, keyword === 'allOf');
  }
  return withDiscriminator(schema as Schema, copy);
}

/** The values of an `examples` map (Example Objects, `$ref`s followed), then `example`. */
function examplesOf(document: OpenApiDocument, holder: { example?: unknown; examples?: unknown }): unknown[] {
  const values: unknown[] = [];
  if (holder.examples && typeof holder.examples === 'object' && !Array.isArray(holder.examples)) {
    for (const raw of Object.values(holder.examples)) {
      const example = resolveRef(document, raw as { value?: unknown; externalValue?: unknown });
      if (example && typeof example === 'object' && 'value' in example) values.push(example.value);
    }
  }
  if (holder.example !== undefined) values.push(holder.example);
  return values;
}

function schemaExamples(schema: Schema): unknown[] {
  const values = Array.isArray(schema['examples']) ? [...(schema['examples'] as unknown[])] : [];
  if (schema['example'] !== undefined) values.push(schema['example']);
  return values;
}

/**
 * A header parameter named Accept, Content-Type or Authorization, whose definition OpenAPI says
 * "SHALL be ignored" (the media types and the security schemes say those): neither sent as a
 * parameter nor left out as a required one.
 */
function isIgnoredHeader(parameter: ParameterObject): boolean {
  return parameter.in === 'header' && ['accept', 'content-type', 'authorization'].includes(String(parameter.name).toLowerCase());
}

function readParameters(document: OpenApiDocument, entry: OperationEntry, unsupported: string[]): ParameterModel[] {
  const byKey = new Map<string, ParameterModel>();
  // Operation-level parameters override path-level ones of the same name and location.
  for (const raw of [...entry.pathParameters, ...(entry.operation.parameters ?? [])]) {
    const parameter = resolveRef(document, raw as ParameterObject);
    if (isIgnoredHeader(parameter)) continue;
    let schemaSource = parameter.schema;
    if (!schemaSource && parameter.content) {
      const json = Object.keys(parameter.content).find(isJsonMediaType);
      if (json) unsupported.push(`parameter ${parameter.name} is JSON in content, which the tester does not write`);
      schemaSource = parameter.content[Object.keys(parameter.content)[0]!]?.schema;
    }
    const schema = inlineSchema(document, schemaSource ?? {});
    const style = parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple');
    const explode = parameter.explode ?? style === 'form';
    const structured = ['array', 'object'].some(
      (type) => schema['type'] === type || (Array.isArray(schema['type']) && schema['type'].includes(type)),
    );
    if (!['simple', 'form'].includes(style) && structured) {
      unsupported.push(`parameter ${parameter.name} has style ${style}, which the tester does not write`);
    }
    if (structured && schema['type'] === 'object')
      unsupported.push(`parameter ${parameter.name} is an object, which the tester does not write`);
    const model: ParameterModel = {
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === 'path' || parameter.required === true,
      schema,
      examples: [...examplesOf(document, parameter), ...schemaExamples(schema)],
      explode,
    };
    if (parameter['x-ignored-if-invalid'] === true) model.ignoredIfInvalid = true;
    if (parameter.in === 'query' && parameter.allowEmptyValue === true) model.allowEmptyValue = true;
    byKey.set(`${parameter.in}:${parameter.name.toLowerCase()}`, model);
  }
  return [...byKey.values()];
}

/** How the tester makes a body of this media type and schema, or undefined when it cannot. */
export function bodyKind(mediaType: string, schema: Schema): BodyKind | undefined {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (isJsonMediaType(type)) return 'json';
  const object = schema['type'] === undefined || schema['type'] === 'object';
  if (type === 'application/x-www-form-urlencoded') return object ? 'form' : undefined;
  if (type === 'multipart/form-data') return object ? 'multipart' : undefined;
  if (type === 'application/octet-stream' || /^(image|audio|video)\//.test(type) || type === 'application/pdf' || type === '*/*')
    return 'binary';
  if (schema['format'] === 'binary' || schema['contentMediaType'] !== undefined) return 'binary';
  if (type.startsWith('text/') && (schema['type'] === undefined || schema['type'] === 'string')) return 'text';
  return undefined;
}

function readBody(document: OpenApiDocument, operation: Record<string, unknown>): BodyModel | undefined {
  if (!operation['requestBody']) return undefined;
  const body = resolveRef(document, operation['requestBody'] as RequestBodyObject);
  const media = Object.entries(body.content ?? {}).map(([mediaType, raw]): MediaModel => {
    const object = resolveRef(document, raw);
    const schema = directed('request', inlineSchema(document, object.schema ?? {}));
    const model: MediaModel = { mediaType, schema, examples: [...examplesOf(document, object), ...schemaExamples(schema)] };
    const kind = bodyKind(mediaType, schema);
    if (kind) model.kind = kind;
    return model;
  });
  return { required: body.required === true, media };
}

function readLinks(
  document: OpenApiDocument,
  response: ResponseObject,
  where: string,
  idByPointer: ReadonlyMap<string, string>,
  warnings: string[],
): LinkModel[] {
  return Object.entries(response.links ?? {}).flatMap(([name, raw]): LinkModel[] => {
    const link = resolveRef(document, raw);
    let target = link.operationId;
    if (target === undefined && typeof link.operationRef === 'string') {
      target = link.operationRef.startsWith('#') ? idByPointer.get(pointerOfRef(link.operationRef)) : undefined;
      if (target === undefined) {
        warnings.push(`link ${where}/${name}: operationRef ${link.operationRef} names no operation of this document; not followed`);
        return [];
      }
    }
    if (target === undefined) {
      warnings.push(`link ${where}/${name} has neither operationId nor operationRef; not followed`);
      return [];
    }
    const model: LinkModel = { name, targetOperationId: target, parameters: link.parameters ?? {} };
    if (link.requestBody !== undefined) model.requestBody = link.requestBody;
    const header = link['x-link-header'];
    if (header) {
      const supplies = header.supplies ?? [];
      if (typeof header.header !== 'string' || typeof header.rel !== 'string' || !Array.isArray(supplies)) {
        warnings.push(`link ${where}/${name}: x-link-header needs header, rel and a list supplies; not followed`);
        return [];
      }
      model.header = { name: header.header, rel: header.rel.toLowerCase(), supplies: supplies.map(String) };
    }
    return [model];
  });
}

function readResponses(
  document: OpenApiDocument,
  entry: OperationEntry,
  idByPointer: ReadonlyMap<string, string>,
  warnings: string[],
): ResponseModel[] {
  return Object.entries(entry.operation.responses ?? {}).map(([status, raw]) => {
    const where = `${entry.pointer}/responses/${status}`;
    const { value: response, pointer: at } = resolveRefAt(document, raw as ResponseObject, where);
    const mediaTypes = Object.keys(response.content ?? {});
    const json = mediaTypes.find(isJsonMediaType);
    const model: ResponseModel = { status, mediaTypes, links: readLinks(document, response, where, idByPointer, warnings) };
    const schema = json === undefined ? undefined : response.content![json]!.schema;
    if (schema !== undefined) {
      const schemaAt = `${at}/content/${escapePointerToken(json!)}/schema`;
      try {
        model.schemaPointer = resolveRefAt(document, schema, schemaAt).pointer;
        model.schema = directed('response', inlineSchema(document, schema));
      } catch (error) {
        rethrowDeadline(error);
        // One schema that cannot be read ends no run: the answers are read without it.
        warnings.push(
          `the schema at ${schemaAt} cannot be read (${(error as Error).message}): links and resources are learned from its answers without it`,
        );
      }
    }
    return model;
  });
}

function readScheme(raw: SecuritySchemeObject | undefined): SchemeModel {
  if (raw?.type === 'http' && typeof raw.scheme === 'string') return { type: 'http', scheme: raw.scheme.toLowerCase() };
  if (raw?.type === 'apiKey' && (raw.in === 'header' || raw.in === 'query' || raw.in === 'cookie') && raw.name) {
    return { type: 'apiKey', in: raw.in, name: raw.name };
  }
  if (raw?.type === 'oauth2' || raw?.type === 'openIdConnect' || raw?.type === 'mutualTLS') return { type: raw.type };
  return { type: 'unknown' };
}

/** The document breaks OpenAPI in a way the tester cannot read past: the message names the construct and where it is. */
export class SpecError extends Error {}

function readSecurity(document: OpenApiDocument, operation: Record<string, unknown>, pointer: string): SecurityModel {
  const own = operation['security'] !== undefined;
  const requirements = (own ? operation['security'] : (document.security ?? [])) as Array<Record<string, unknown>>;
  const where = own ? `#${pointer}/security` : '#/security';
  if (!Array.isArray(requirements) || requirements.some((item) => item === null || typeof item !== 'object' || Array.isArray(item)))
    throw new SpecError(
      `${where} is ${JSON.stringify(requirements).slice(0, 80)}: OpenAPI's security is a list of requirements, each an object of scheme names to scopes ([{"name": []}])`,
    );
  const schemes = (document.components['securitySchemes'] ?? {}) as Record<string, SecuritySchemeObject>;
  const alternatives = requirements
    .filter((requirement) => Object.keys(requirement).length > 0)
    .map((requirement) =>
      Object.keys(requirement).map((name) => ({ name, scheme: readScheme(schemes[name] && resolveRef(document, schemes[name])) })),
    );
  return { alternatives, optional: requirements.some((requirement) => Object.keys(requirement).length === 0) };
}

/** Whether an operation needs credentials: it has security requirements and none of them is empty. */
export function needsCredentials(operation: OperationModel): boolean {
  return operation.security.alternatives.length > 0 && !operation.security.optional;
}

/** The request body's model, or, when it cannot be read (a `$ref` to nothing), the reason the operation is left out. */
function readableBody(document: OpenApiDocument, raw: Record<string, unknown>, unsupported: string[]): BodyModel | undefined {
  try {
    return readBody(document, raw);
  } catch (error) {
    rethrowDeadline(error);
    unsupported.push(`its request body cannot be read: ${(error as Error).message}`);
    return undefined;
  }
}

/** What the contract tester needs of an OpenAPI 3.0 or 3.1 document, every `$ref` resolved. */
export function readApiModel(document: OpenApiDocument): ApiModel {
  const warnings: string[] = [];
  const entries = listOperations(document);
  const idByPointer = new Map(entries.map(({ pointer, id }) => [pointer, id]));
  const operations = entries.map((entry): OperationModel => {
    checkDeadline();
    const raw = entry.operation as unknown as Record<string, unknown>;
    const unsupported: string[] = [];
    const model: OperationModel = {
      id: entry.id,
      method: entry.method,
      path: entry.path,
      pointer: entry.pointer,
      tags: entry.operation.tags ?? [],
      deprecated: entry.operation.deprecated === true,
      parameters: readParameters(document, entry, unsupported),
      security: readSecurity(document, raw, entry.pointer),
      responses: readResponses(document, entry, idByPointer, warnings),
    };
    const body = readableBody(document, raw, unsupported);
    if (body) {
      model.body = body;
      if (!body.media.some(({ kind }) => kind)) {
        unsupported.push(
          `its request body is ${body.media.map(({ mediaType }) => mediaType).join(' or ')}, which the tester does not make`,
        );
      }
    }
    if (unsupported.length) model.unsupported = unsupported.join('; ');
    return model;
  });
  const ids = new Set(operations.map(({ id }) => id));
  for (const operation of operations) {
    for (const response of operation.responses) {
      response.links = response.links.filter((link) => {
        if (ids.has(link.targetOperationId)) return true;
        warnings.push(`link ${link.name} of ${operation.id} names no operation (${link.targetOperationId}); not followed`);
        return false;
      });
    }
  }
  const model: ApiModel = { document, basePath: basePathOf(document, { onDisagreement: 'none' }), operations, warnings };
  const limit = document['x-max-request-body-bytes'];
  if (typeof limit === 'number') model.maxRequestBodyBytes = limit;
  const targetLimit = document['x-max-request-target-bytes'];
  if (typeof targetLimit === 'number') model.maxRequestTargetBytes = targetLimit;
  return model;
}

export function isSuccessStatus(status: string | number): boolean {
  return /^2(\d\d|XX)$/i.test(String(status));
}

/** The documented response for a status: its own entry, else `2XX`-style ranges, else `default`. */
export function documentedResponse(operation: OperationModel, status: number): ResponseModel | undefined {
  const byKey = new Map(operation.responses.map((response) => [response.status.toUpperCase(), response]));
  return byKey.get(String(status)) ?? byKey.get(`${String(status)[0]}XX`) ?? byKey.get('DEFAULT');
}

/** Whether the operation documents some success (2xx or 3xx, or a `default` that may be one). */
export function documentsSuccess(operation: OperationModel): boolean {
  return operation.responses.some(({ status }) => /^[23]/.test(status) || status.toLowerCase() === 'default');
}

/** The operations that share a path, e.g. GET and POST on /pets. */
export function operationsAt(model: ApiModel, path: string): OperationModel[] {
  return model.operations.filter((operation) => operation.path === path);
}

/** The media type a request body is sent as, by choice: the first JSON one, else the first the tester can make. */
export function preferredMedia(body: BodyModel): MediaModel | undefined {
  return body.media.find(({ kind }) => kind === 'json') ?? body.media.find(({ kind }) => kind);
}
