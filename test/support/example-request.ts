import request from 'supertest';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import { resolveRef, type SchemaObject } from '../../src/contract/spec.js';

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: SchemaObject;
}

interface MediaTypeObject {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: SchemaObject;
}

/** The request an operation's examples in openapi.yaml make. */
export interface ExampleRequest {
  /** `METHOD /base/path/{template}`, as the server's messages name the operation. */
  operation: string;
  method: 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';
  /** Below the origin: the base path, the path with its parameters filled in, and the required query parameters. */
  url: string;
  /** The required header parameters, and Content-Type when there is a body. */
  headers: Record<string, string>;
  /** The body as sent, when the operation takes one. */
  body?: string;
}

/** An object's first example: `example`, else the first of `examples`, else its schema's first. */
function firstExample(document: Contract['document'], holder: { example?: unknown; examples?: unknown; schema?: SchemaObject }): unknown {
  if (holder.example !== undefined) return holder.example;
  const named = Object.values((holder.examples ?? {}) as Record<string, { value?: unknown }>)[0];
  if (named) return resolveRef(document, named).value;
  const schema = holder.schema ? resolveRef(document, holder.schema) : undefined;
  const examples = schema?.['examples'];
  return Array.isArray(examples) ? examples[0] : schema?.['default'];
}

/** Made-up values of string formats a parameter may have, for a parameter without an example. */
const FORMAT_VALUES: Readonly<Record<string, string>> = {
  date: '2026-01-01',
  'date-time': '2026-01-01T00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'someone@example.com',
};

/**
 * A value a parameter's schema accepts when the document gives it no example (a document not
 * written for this stack may give none): its first enum value, else one of its type, within its bounds.
 */
function madeUpValue(document: Contract['document'], raw: SchemaObject | undefined): unknown {
  const schema = raw ? resolveRef(document, raw) : {};
  const enumerated = schema['enum'];
  if (Array.isArray(enumerated) && enumerated.length > 0) return enumerated[0];
  const type = Array.isArray(schema['type']) ? (schema['type'] as unknown[])[0] : schema['type'];
  const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
  switch (type) {
    case 'integer':
    case 'number':
      return minimum;
    case 'boolean':
      return true;
    case 'array':
      return [madeUpValue(document, schema['items'] as SchemaObject | undefined)];
    default: {
      const format = FORMAT_VALUES[String(schema['format'])];
      return format ?? 'a'.repeat(Math.max(1, Number(schema['minLength'] ?? 1)));
    }
  }
}

/**
 * The request openapi.yaml's own examples make for an operation: every path parameter, the required
 * query and header parameters, and the body (its first media type), each from its first example.
 * Operation, path-item and component parameters alike; the pet store's lint rules require the
 * examples, and a parameter of another document without one gets a value made up from its schema.
 */
export function exampleRequest(operationId: string, contract: Contract = loadContract()): ExampleRequest {
  const { document, basePath } = contract;
  const entry = contract.operations.find(({ operation }) => operation.operationId === operationId);
  if (!entry) throw new Error(`openapi.yaml has no operation ${operationId}`);
  const shared = (document.paths[entry.path]?.['parameters'] ?? []) as ParameterObject[];
  const parameters = [...shared, ...((entry.operation.parameters ?? []) as ParameterObject[])].map((p) => resolveRef(document, p));
  const value = (parameter: ParameterObject) => {
    const example = firstExample(document, parameter) ?? madeUpValue(document, parameter.schema);
    return typeof example === 'string' ? example : JSON.stringify(example);
  };
  const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(value(parameters.find((p) => p.in === 'path' && p.name === name)!)),
  );
  const query = new URLSearchParams(
    parameters.filter((p) => p.in === 'query' && p.required).map((p): [string, string] => [p.name, value(p)]),
  );
  const headers = Object.fromEntries(parameters.filter((p) => p.in === 'header' && p.required).map((p) => [p.name, value(p)]));
  const example: ExampleRequest = {
    operation: `${entry.method.toUpperCase()} ${basePath}${entry.path}`,
    method: entry.method as ExampleRequest['method'],
    url: `${basePath}${path}${query.size > 0 ? `?${query.toString()}` : ''}`,
    headers,
  };
  const requestBody = entry.operation.requestBody as { content?: Record<string, MediaTypeObject> } | undefined;
  const [mediaType, media] = Object.entries(requestBody ? (resolveRef(document, requestBody).content ?? {}) : {})[0] ?? [];
  if (mediaType && media) {
    const body = firstExample(document, media);
    if (body === undefined) throw new Error(`${operationId}: the ${mediaType} request body has no example`);
    example.headers['Content-Type'] = mediaType;
    example.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  return example;
}

/** Sends an example request, with these headers too (the key), without the contract check of t.api. */
export function sendExampleRequest(origin: string, example: ExampleRequest, headers: Record<string, string> = {}) {
  const pending = request(origin)
    [example.method](example.url)
    .set({ ...example.headers, ...headers });
  return example.body === undefined ? pending : pending.send(example.body);
}
