import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/openapi.js';
import { documentedResponse, inlineSchema, isJsonMediaType, readApiModel } from '../src/spec-model.js';
import { petStoreDocument } from './support/pet-store.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;

function tinySpec(extra: Partial<OpenApiDocument> & { operation?: Record<string, unknown> } = {}): OpenApiDocument {
  const { operation: overrides, ...rest } = extra;
  return {
    openapi: '3.1.0',
    info: { title: 'tiny', version: '1.0.0' },
    servers: [{ url: 'http://localhost/api' }],
    paths: { '/things': { get: { operationId: 'listThings', responses: { '200': { description: 'ok' } }, ...overrides } } },
    components: { schemas: {} },
    ...rest,
  };
}

describe('the model of openapi.yaml', () => {
  it('has every operation with its method, path and base path', () => {
    expect(api.basePath).toBe('/v1');
    expect(api.operations.map(({ id, method, path }) => `${id} ${method} ${path}`)).toEqual([
      'listPets get /pets',
      'createPet post /pets',
      'getPet get /pets/{petId}',
      'listStoreOrders get /store/orders',
    ]);
    expect(api.maxRequestBodyBytes).toBe(16384);
  });

  it('resolves parameters and their schemas', () => {
    expect(operation('listPets').parameters.map(({ name, in: where, required }) => `${where}:${name}:${required}`)).toEqual([
      'query:limit:false',
      'query:status:false',
      'query:cursor:false',
      'header:X-Request-Id:false',
      'header:traceparent:false',
    ]);
    // The server ignores, never refuses, what it cannot use of these two (x-ignored-if-invalid).
    expect(
      operation('listPets')
        .parameters.filter(({ ignoredIfInvalid }) => ignoredIfInvalid)
        .map(({ name }) => name),
    ).toEqual(['X-Request-Id', 'traceparent']);
    const petId = operation('getPet').parameters[0]!;
    expect(petId).toMatchObject({ name: 'petId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, format: 'int64' } });
  });

  it('inlines the body schema', () => {
    const body = operation('createPet').body!;
    expect(body.required).toBe(true);
    expect(body.mediaTypes).toEqual(['application/json']);
    expect(body.schema['additionalProperties']).toBe(false);
    expect((body.schema['properties'] as Record<string, Record<string, unknown>>)['status']!['enum']).toEqual([
      'available',
      'pending',
      'sold',
    ]);
  });

  it('reads the links, the parameter ones and the one carried by a header', () => {
    const created = documentedResponse(operation('createPet'), 201)!;
    expect(created.schemaPointer).toBe('/components/schemas/Pet');
    expect(created.links).toEqual([{ name: 'getPet', targetOperationId: 'getPet', parameters: { petId: '$response.body#/id' } }]);
    const page = documentedResponse(operation('listPets'), 200)!;
    expect(page.links).toEqual([
      { name: 'nextPage', targetOperationId: 'listPets', parameters: {}, header: { name: 'Link', rel: 'next', supplies: ['cursor'] } },
    ]);
  });

  it('knows which operations need a key and how it is sent', () => {
    expect(operation('listPets').credentials).toEqual([{ type: 'bearer' }]);
    expect(readApiModel(tinySpec()).operations[0]!.credentials).toEqual([]);
    const keyed = tinySpec({
      security: [{ key: [] }],
      components: { schemas: {}, securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
    });
    expect(readApiModel(keyed).operations[0]!.credentials).toEqual([{ type: 'apiKey', in: 'header', name: 'X-Key' }]);
    expect(
      readApiModel({ ...keyed, paths: { '/things': { get: { operationId: 'x', security: [], responses: {} } } } }).operations[0]!
        .credentials,
    ).toEqual([]);
  });

  it('refuses what it cannot test rather than test it wrongly', () => {
    expect(() => readApiModel(tinySpec({ operation: { parameters: [{ name: 'q', in: 'query', content: {} }] } }))).toThrow(/no schema/);
    expect(() =>
      readApiModel(tinySpec({ operation: { parameters: [{ name: 'q', in: 'query', style: 'deepObject', schema: {} }] } })),
    ).toThrow(/deepObject/);
    expect(() =>
      readApiModel(tinySpec({ operation: { responses: { '200': { description: 'x', links: { a: { operationId: 'nothing' } } } } } })),
    ).toThrow(/names no operation/);
    const recursive = tinySpec({
      components: { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } },
    });
    expect(() => inlineSchema(recursive, { $ref: '#/components/schemas/Node' })).toThrow(/recursive/);
  });

  it('finds documented responses by status, range or default', () => {
    const model = readApiModel(
      tinySpec({ operation: { responses: { '200': { description: 'ok' }, '4XX': { description: 'x' }, default: { description: 'y' } } } }),
    );
    const things = model.operations[0]!;
    expect(documentedResponse(things, 200)?.status).toBe('200');
    expect(documentedResponse(things, 404)?.status).toBe('4XX');
    expect(documentedResponse(things, 500)?.status).toBe('default');
  });

  it('tells JSON media types', () => {
    expect(['application/json', 'application/problem+json', 'Application/JSON; charset=utf-8'].every(isJsonMediaType)).toBe(true);
    expect(['text/json', 'application/jsonx', 'text/plain'].some(isJsonMediaType)).toBe(false);
  });
});
