import {
  basePathOf,
  escapePointerToken,
  listOperations,
  resolveRef,
  resolveRefAt,
  type HttpMethod,
  type OpenApiDocument,
  type SchemaObject,
} from './openapi.js';

/** A JSON Schema with every `$ref` replaced by what it names. */
export type Schema = SchemaObject;

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ParameterModel {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: Schema;
  /**
   * `x-ignored-if-invalid: true`: the server ignores a value it cannot use rather than refusing the
   * request (a request id, a trace context), so no value of it breaks the contract.
   */
  ignoredIfInvalid?: boolean;
}

export interface BodyModel {
  required: boolean;
  /** The media types the operation takes, as the spec lists them (`application/json`). */
  mediaTypes: string[];
  /** The schema of the JSON media type. */
  schema: Schema;
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
}

export interface ResponseModel {
  status: string;
  /** Where the spec's JSON schema of this response's body lives (after `$ref`s), or undefined without one. */
  schemaPointer?: string;
  schema?: Schema;
  links: LinkModel[];
}

/** How a key is sent: the security schemes of one requirement the tester can fill. */
export type CredentialScheme = { type: 'bearer' } | { type: 'apiKey'; in: 'header' | 'query'; name: string };

export interface OperationModel {
  id: string;
  method: HttpMethod;
  /** Path template as written in the spec, e.g. /pets/{petId}. */
  path: string;
  parameters: ParameterModel[];
  body?: BodyModel;
  /** The schemes to send a key with; none when the operation needs no credentials. */
  credentials: CredentialScheme[];
  responses: ResponseModel[];
}

export interface ApiModel {
  document: OpenApiDocument;
  basePath: string;
  operations: OperationModel[];
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
  content?: unknown;
  'x-ignored-if-invalid'?: boolean;
}

interface RequestBodyObject {
  required?: boolean;
  content?: Record<string, { schema?: Schema }>;
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

/**
 * A copy of a schema with its `$ref`s replaced by their targets (sibling keywords kept, as OpenAPI
 * 3.1 allows). Recursive schemas are refused: the tester generates values from the expansion.
 */
export function inlineSchema(document: OpenApiDocument, schema: unknown, refsInUse: string[] = []): Schema {
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(document, item, refsInUse)) as unknown as Schema;
  if (schema === null || typeof schema !== 'object') return schema as Schema;
  const { $ref, ...siblings } = schema as Schema;
  if (typeof $ref === 'string') {
    if (refsInUse.includes($ref)) throw new Error(`openapi.yaml: ${$ref} is recursive, which the contract tester does not support`);
    const target = resolveRef(document, { $ref });
    const inlined = inlineSchema(document, target, [...refsInUse, $ref]);
    return Object.keys(siblings).length ? { ...inlined, ...inlineSchema(document, siblings, refsInUse) } : inlined;
  }
  const copy: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    // Examples and descriptions are data, not schemas: copied as they are.
    copy[keyword] =
      keyword === 'examples' || keyword === 'example' || keyword === 'const' || keyword === 'enum'
        ? value
        : inlineSchema(document, value, refsInUse);
  }
  return copy;
}

function readParameters(
  document: OpenApiDocument,
  operation: Record<string, unknown>,
  pathItem: Record<string, unknown>,
): ParameterModel[] {
  const byKey = new Map<string, ParameterModel>();
  // Operation-level parameters override path-level ones of the same name and location.
  for (const raw of [...((pathItem['parameters'] as unknown[]) ?? []), ...((operation['parameters'] as unknown[]) ?? [])]) {
    const parameter = resolveRef(document, raw as ParameterObject);
    if (!parameter.schema) throw new Error(`openapi.yaml: parameter ${parameter.name} has no schema (content is not supported)`);
    if (parameter.style !== undefined && !['simple', 'form'].includes(parameter.style)) {
      throw new Error(`openapi.yaml: parameter ${parameter.name} has style ${parameter.style}, which the contract tester does not support`);
    }
    byKey.set(`${parameter.in}:${parameter.name}`, {
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === 'path' || parameter.required === true,
      schema: inlineSchema(document, parameter.schema),
      ignoredIfInvalid: parameter['x-ignored-if-invalid'] === true,
    });
  }
  return [...byKey.values()];
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA_TYPE.test(mediaType.split(';')[0]!.trim());
}

function readBody(document: OpenApiDocument, operation: Record<string, unknown>): BodyModel | undefined {
  if (!operation['requestBody']) return undefined;
  const body = resolveRef(document, operation['requestBody'] as RequestBodyObject);
  const mediaTypes = Object.keys(body.content ?? {});
  const json = mediaTypes.find(isJsonMediaType);
  if (!json) throw new Error(`openapi.yaml: the request body of ${String(operation['operationId'])} has no JSON media type`);
  return { required: body.required === true, mediaTypes, schema: inlineSchema(document, body.content![json]!.schema ?? {}) };
}

function readLinks(document: OpenApiDocument, response: ResponseObject, where: string): LinkModel[] {
  return Object.entries(response.links ?? {}).map(([name, raw]) => {
    const link = resolveRef(document, raw);
    if (!link.operationId) throw new Error(`openapi.yaml: link ${where}/${name} needs an operationId (operationRef is not supported)`);
    const model: LinkModel = { name, targetOperationId: link.operationId, parameters: link.parameters ?? {} };
    if (link.requestBody !== undefined) model.requestBody = link.requestBody;
    const header = link['x-link-header'];
    if (header) {
      const supplies = header.supplies ?? [];
      if (typeof header.header !== 'string' || typeof header.rel !== 'string' || !Array.isArray(supplies)) {
        throw new Error(`openapi.yaml: link ${where}/${name}: x-link-header needs header, rel and a list supplies`);
      }
      model.header = { name: header.header, rel: header.rel.toLowerCase(), supplies: supplies.map(String) };
    }
    return model;
  });
}

function readResponses(document: OpenApiDocument, operation: Record<string, unknown>, pointer: string): ResponseModel[] {
  return Object.entries((operation['responses'] as Record<string, unknown>) ?? {}).map(([status, raw]) => {
    const { value: response, pointer: at } = resolveRefAt(document, raw as ResponseObject, `${pointer}/responses/${status}`);
    const json = Object.keys(response.content ?? {}).find(isJsonMediaType);
    const model: ResponseModel = { status, links: readLinks(document, response, `${pointer}/responses/${status}`) };
    const schema = json === undefined ? undefined : response.content![json]!.schema;
    if (schema !== undefined) {
      model.schemaPointer = resolveRefAt(document, schema, `${at}/content/${escapePointerToken(json!)}/schema`).pointer;
      model.schema = inlineSchema(document, schema);
    }
    return model;
  });
}

function readCredentials(document: OpenApiDocument, operation: Record<string, unknown>): CredentialScheme[] {
  const requirements = (operation['security'] ?? document.security ?? []) as Array<Record<string, unknown>>;
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0)) return [];
  const schemes = (document.components['securitySchemes'] ?? {}) as Record<string, SecuritySchemeObject>;
  for (const requirement of requirements) {
    const filled = Object.keys(requirement).map((name): CredentialScheme | undefined => {
      const scheme = schemes[name];
      if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return { type: 'bearer' };
      if (scheme?.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && scheme.name) {
        return { type: 'apiKey', in: scheme.in, name: scheme.name };
      }
      return undefined;
    });
    if (filled.every((scheme) => scheme !== undefined)) return filled;
  }
  throw new Error(
    `openapi.yaml: ${String(operation['operationId'])} needs credentials the contract tester cannot send (only http bearer and apiKey)`,
  );
}

/** What the contract tester needs of an OpenAPI 3.1 document, every `$ref` resolved. */
export function readApiModel(document: OpenApiDocument): ApiModel {
  const operations = listOperations(document).map(({ method, path, operation }): OperationModel => {
    const raw = operation as unknown as Record<string, unknown>;
    const pointer = `/paths/${escapePointerToken(path)}/${method}`;
    const model: OperationModel = {
      id: operation.operationId,
      method,
      path,
      parameters: readParameters(document, raw, document.paths[path]!),
      credentials: readCredentials(document, raw),
      responses: readResponses(document, raw, pointer),
    };
    const body = readBody(document, raw);
    if (body) model.body = body;
    return model;
  });
  const ids = new Set(operations.map(({ id }) => id));
  for (const operation of operations) {
    for (const link of operation.responses.flatMap(({ links }) => links)) {
      if (!ids.has(link.targetOperationId)) throw new Error(`openapi.yaml: link ${link.name} of ${operation.id} names no operation`);
    }
  }
  const limit = document['x-max-request-body-bytes'];
  const model: ApiModel = { document, basePath: basePathOf(document), operations };
  if (typeof limit === 'number') model.maxRequestBodyBytes = limit;
  const targetLimit = document['x-max-request-target-bytes'];
  if (typeof targetLimit === 'number') model.maxRequestTargetBytes = targetLimit;
  return model;
}

export function isSuccessStatus(status: string | number): boolean {
  return /^2(\d\d|XX)$/.test(String(status));
}

/** The documented response for a status: its own entry, else `2XX`-style ranges, else `default`. */
export function documentedResponse(operation: OperationModel, status: number): ResponseModel | undefined {
  const byKey = new Map(operation.responses.map((response) => [response.status.toUpperCase(), response]));
  return byKey.get(String(status)) ?? byKey.get(`${String(status)[0]}XX`) ?? byKey.get('DEFAULT');
}

/** The operations that share a path, e.g. GET and POST on /pets. */
export function operationsAt(model: ApiModel, path: string): OperationModel[] {
  return model.operations.filter((operation) => operation.path === path);
}
