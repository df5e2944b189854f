import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/spec/load.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';
import {
  bodyKind,
  documentedResponse,
  documentsSuccess,
  INLINE_BUDGET,
  inlineSchema,
  isRecursionCut,
  needsCredentials,
  preferredMedia,
  readApiModel,
} from '../../src/spec/model.js';
import { minimalSpec } from '../support/semantics/minimal.js';
import { petStoreDocument } from '../support/pet-store.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';

const gallery = readApiModel(parseSpec(readFileSync(GALLERY_SPEC, 'utf8')));
const board = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
const petStore = readApiModel(petStoreDocument());
const operation = (api: typeof gallery, id: string) => api.operations.find((candidate) => candidate.id === id)!;

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

describe('the model of a spec', () => {
  it('has every operation with its method, path, tags and base path', () => {
    expect(gallery.basePath).toBe('/api');
    expect(gallery.operations.map(({ id, method, path }) => `${id} ${method} ${path}`)).toEqual([
      'listOpeningHours get /opening-hours',
      'listExhibitions get /exhibitions',
      'createExhibition post /exhibitions',
      'getExhibition get /exhibitions/{exhibitionId}',
      'deleteExhibition delete /exhibitions/{exhibitionId}',
      'updateExhibition patch /exhibitions/{exhibitionId}',
      'buyTicket post /tickets',
      'getTicketQr get /tickets/{ticketId}/qr',
    ]);
    expect(readApiModel(tinySpec({ operation: { tags: ['a'], deprecated: true } })).operations[0]).toMatchObject({
      tags: ['a'],
      deprecated: true,
    });
  });

  it('resolves parameters, those of the path item too, with their schemas and examples', () => {
    const square = operation(board, 'getSquare');
    expect(square.parameters.map(({ name, in: where, required }) => `${where}:${name}:${required}`)).toEqual([
      'path:gameId:true',
      'path:row:true',
      'path:column:true',
    ]);
    expect(square.parameters[1]!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 3 });
    expect(operation(gallery, 'listOpeningHours').parameters[0]).toMatchObject({ name: 'from', examples: ['2030-01-01'], explode: true });
    // The server ignores, never refuses, what it cannot use of these (x-ignored-if-invalid).
    const listing = petStore.operations.find(({ method, path }) => method === 'get' && path === '/pets')!;
    expect(listing.parameters.filter(({ ignoredIfInvalid }) => ignoredIfInvalid).map(({ in: where }) => where)).toEqual([
      'header',
      'header',
    ]);
    expect(petStore.maxRequestBodyBytes).toBe(petStoreDocument()['x-max-request-body-bytes']);
  });

  it('ignores header parameters named Accept, Content-Type and Authorization, as OpenAPI says', () => {
    const header = (name: string) => ({ name, in: 'header', required: true, schema: { type: 'string', enum: ['application/json'] } });
    const model = readApiModel(
      minimalSpec({
        '/documents': {
          post: {
            operationId: 'upload',
            parameters: [header('Content-Type'), header('accept'), header('Authorization'), header('X-Trace')],
            responses: { '200': { description: 'ok' } },
          },
        },
      }),
    );
    expect(model.operations[0]!.parameters.map(({ name }) => name)).toEqual(['X-Trace']);
  });

  it('inlines the body schema of each media type, with how the tester makes it and its examples', () => {
    const body = operation(gallery, 'createExhibition').body!;
    expect(body.required).toBe(true);
    expect(body.media.map(({ mediaType, kind }) => `${mediaType} ${kind}`)).toEqual(['application/json json']);
    expect(body.media[0]!.schema['unevaluatedProperties']).toBe(false);
    expect(body.media[0]!.examples).toEqual([{ title: 'Bronze', room: 'East', price: 12.5, dates: ['2030-05-01'] }]);
    expect(preferredMedia(body)?.mediaType).toBe('application/json');
    expect(operation(gallery, 'updateExhibition').body!.media.map(({ kind }) => kind)).toEqual(['json']);
  });

  it('knows the bodies it makes: JSON (+json too), forms, multipart, binary, text; not XML', () => {
    const kinds = [
      ['application/json', {}],
      ['application/merge-patch+json', {}],
      ['application/x-www-form-urlencoded', { type: 'object' }],
      ['multipart/form-data', {}],
      ['application/octet-stream', {}],
      ['image/png', {}],
      ['application/pdf', { type: 'string', format: 'binary' }],
      ['text/plain', { type: 'string' }],
      ['application/xml', { type: 'object' }],
      ['application/x-www-form-urlencoded', { type: 'string' }],
    ].map(([mediaType, schema]) => bodyKind(mediaType as string, schema as Record<string, unknown>));
    expect(kinds).toEqual(['json', 'json', 'form', 'multipart', 'binary', 'binary', 'binary', 'text', undefined, undefined]);
    const xmlOnly = readApiModel(
      tinySpec({ operation: { requestBody: { content: { 'application/xml': { schema: { type: 'object' } } } } } }),
    );
    expect(xmlOnly.operations[0]!.unsupported).toBe('its request body is application/xml, which the tester does not make');
  });

  it('reads links by operationId and by operationRef, and the one carried by a header', () => {
    const created = documentedResponse(operation(board, 'createGame'), 201)!;
    expect(created.schemaPointer).toBe('/components/schemas/Game');
    expect(created.links).toEqual([
      { name: 'game', targetOperationId: 'getGame', parameters: { gameId: '$response.body#/gameId' } },
      { name: 'firstMark', targetOperationId: 'markSquare', parameters: { gameId: '$response.body#/gameId', row: 2, column: 2 } },
    ]);
    const listing = petStore.operations.find(({ method, path }) => method === 'get' && path === '/pets')!;
    expect(documentedResponse(listing, 200)!.links).toEqual([
      { name: 'nextPage', targetOperationId: listing.id, parameters: {}, header: { name: 'Link', rel: 'next', supplies: ['cursor'] } },
    ]);
  });

  it('warns of the links it will not follow', () => {
    const links = {
      away: { operationRef: 'https://other.test/spec.yaml#/paths/~1x/get' },
      nowhere: { operationId: 'missing' },
      neither: {},
    };
    const model = readApiModel(tinySpec({ operation: { responses: { '200': { description: 'ok', links } } } }));
    expect(model.operations[0]!.responses[0]!.links).toEqual([]);
    expect(model.warnings).toEqual([
      'link /paths/~1things/get/responses/200/away: operationRef https://other.test/spec.yaml#/paths/~1x/get names no operation of this document; not followed',
      'link /paths/~1things/get/responses/200/neither has neither operationId nor operationRef; not followed',
      'link nowhere of listThings names no operation (missing); not followed',
    ]);
  });

  it('reads every security alternative with its schemes, and whether credentials are optional', () => {
    expect(operation(board, 'getGame').security).toEqual({
      alternatives: [
        [{ name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key' } }],
        [{ name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } }],
        [{ name: 'oauth', scheme: { type: 'oauth2' } }],
      ],
      optional: false,
    });
    expect(needsCredentials(operation(board, 'getGame'))).toBe(true);
    expect(needsCredentials(readApiModel(tinySpec()).operations[0]!)).toBe(false);
    const schemes = {
      key: { type: 'apiKey', in: 'cookie', name: 'k' },
      basic: { type: 'http', scheme: 'Basic' },
      odd: { type: 'apiKey', in: 'body', name: 'x' },
    };
    const mixed = readApiModel(
      tinySpec({ security: [{ key: [], basic: [] }, { odd: [] }, {}], components: { schemas: {}, securitySchemes: schemes } }),
    );
    expect(mixed.operations[0]!.security).toEqual({
      alternatives: [
        [
          { name: 'key', scheme: { type: 'apiKey', in: 'cookie', name: 'k' } },
          { name: 'basic', scheme: { type: 'http', scheme: 'basic' } },
        ],
        [{ name: 'odd', scheme: { type: 'unknown' } }],
      ],
      optional: true,
    });
    expect(needsCredentials(mixed.operations[0]!)).toBe(false);
  });

  it('says what of an operation it cannot test, rather than test it wrongly', () => {
    const unsupported = (parameters: unknown[]) => readApiModel(tinySpec({ operation: { parameters } })).operations[0]!.unsupported;
    expect(unsupported([{ name: 'q', in: 'query', content: { 'application/json': { schema: {} } } }])).toBe(
      'parameter q is JSON in content, which the tester does not write',
    );
    expect(unsupported([{ name: 'q', in: 'query', style: 'deepObject', schema: { type: 'object' } }])).toMatch(/style deepObject/);
    expect(unsupported([{ name: 'q', in: 'query', schema: { type: 'array', items: { type: 'string' } } }])).toBeUndefined();
  });

  it('cuts a recursive schema after two rounds, and marks the cut', () => {
    const recursive = tinySpec({
      components: { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } },
    });
    const inlined = inlineSchema(recursive, { $ref: '#/components/schemas/Node' });
    const next = (schema: Record<string, unknown>) => (schema['properties'] as Record<string, Record<string, unknown>>)['next']!;
    expect(isRecursionCut(next(inlined))).toBe(false);
    expect(isRecursionCut(next(next(inlined)))).toBe(true);
  });

  it('finds documented responses by status, range or default', () => {
    const model = readApiModel(
      tinySpec({ operation: { responses: { '200': { description: 'ok' }, '4XX': { description: 'x' }, default: { description: 'y' } } } }),
    );
    const things = model.operations[0]!;
    expect(documentedResponse(things, 200)?.status).toBe('200');
    expect(documentedResponse(things, 404)?.status).toBe('4XX');
    expect(documentedResponse(things, 500)?.status).toBe('default');
    expect(documentsSuccess(things)).toBe(true);
    expect(documentsSuccess(readApiModel(tinySpec({ operation: { responses: { '501': { description: 'later' } } } })).operations[0]!)).toBe(
      false,
    );
  });
});

describe('inlining schemas that refer to each other a lot', () => {
  // Twelve entities, each with a property of every other: two rounds per $ref expand to about 12^12 objects.
  const names = Array.from({ length: 12 }, (_, index) => `E${index}`);
  const dense = (): OpenApiDocument => ({
    openapi: '3.1.0',
    info: { title: 'dense', version: '1' },
    paths: {},
    components: {
      schemas: Object.fromEntries(
        names.map((name) => [
          name,
          {
            type: 'object',
            properties: Object.fromEntries(names.map((other) => [other.toLowerCase(), { $ref: `#/components/schemas/${other}` }])),
          },
        ]),
      ),
    },
  });
  const objects = (node: unknown): number =>
    node !== null && typeof node === 'object' ? 1 + Object.values(node).reduce((sum: number, value) => sum + objects(value), 0) : 0;

  it('cuts a copy past the budget, as a recursion is cut, instead of expanding it without end', () => {
    const copy = inlineSchema(dense(), { $ref: '#/components/schemas/E0' });
    // Objects of the schema, its property maps and lists: a small multiple of the budget, never 12^12.
    expect(objects(copy)).toBeLessThan(10 * INLINE_BUDGET);
    expect(JSON.stringify(copy)).toContain('x-recursion-cut');
  });

  it('makes one copy of a component for all the places that use it', () => {
    const document = dense();
    expect(inlineSchema(document, { $ref: '#/components/schemas/E1' })).toBe(inlineSchema(document, { $ref: '#/components/schemas/E1' }));
  });
});
