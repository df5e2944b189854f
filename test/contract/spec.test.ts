import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { patchValidator } from '../../src/http/middleware/validator-patches.js';
import { parametersOf, resolveRef, type OpenApiDocument, type SchemaObject } from '../../src/contract/spec.js';

const contract = loadContract();
const document = contract.document;

function clone(): OpenApiDocument {
  return structuredClone(document);
}

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (the server skips this check to start faster)', async () => {
    patchValidator(); // as in the server, where the meta-schema is compiled only when a check is asked for
    const app = express();
    app.use(
      OpenApiValidator.middleware({ apiSpec: clone() as never, validateApiSpec: true, validateRequests: false, validateSecurity: false }),
    );
    app.use((_req, res) => void res.status(204).end());
    app.use(
      ((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
        void res.status(500).send(String(error))) as express.ErrorRequestHandler,
    );
    const res = await request(app).get('/outside-the-api');
    expect(res.text).toBe('');
    expect(res.status).toBe(204);
  });

  it('states the interface: tag, operation ids, versioned servers, bearer security on every operation', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(contract.basePath).toBe('/v1');
    expect(document.servers?.map((server) => server.description)).toEqual(['Production', 'Staging']);
    expect(contract.operations.map(({ operation }) => operation.operationId).sort()).toEqual([
      'createPet',
      'getPet',
      'listPets',
      'listStoreOrders',
    ]);
    for (const { operation } of contract.operations) {
      expect((operation as { security?: unknown }).security, operation.operationId).toBeUndefined();
      expect(operation.responses['401'], operation.operationId).toEqual({ $ref: '#/components/responses/Unauthorized' });
    }
    expect((document as { security?: unknown }).security).toEqual([{ bearerAuth: [] }]);
  });

  it('gives every schema, property, parameter, header and response a description and an example', () => {
    const missing: string[] = [];
    const components = document.components as Record<string, Record<string, Record<string, unknown>>>;
    for (const [name, schema] of Object.entries(components['schemas']!)) {
      if (!schema['description'] || !schema['examples']) missing.push(`schema ${name}`);
      for (const [property, value] of Object.entries((schema['properties'] ?? {}) as Record<string, SchemaObject>)) {
        if (!value['$ref'] && (!value['description'] || !value['examples'])) missing.push(`schema ${name}.${property}`);
      }
    }
    for (const [name, parameter] of Object.entries(components['parameters']!)) {
      if (!parameter['description'] || parameter['example'] === undefined) missing.push(`parameter ${name}`);
    }
    for (const [name, header] of Object.entries(components['headers']!)) {
      if (!header['description'] || !(header['schema'] as SchemaObject)['examples']) missing.push(`header ${name}`);
    }
    for (const { operation } of contract.operations) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, { $ref?: string }>)) {
        const resolved = resolveRef<{ $ref?: string; description?: string; content?: Record<string, { examples?: unknown }> }>(
          document,
          response,
        );
        if (!resolved.description) missing.push(`${operation.operationId} ${status} description`);
        for (const [type, media] of Object.entries(resolved.content ?? {})) {
          if (!media.examples) missing.push(`${operation.operationId} ${status} ${type} example`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('resolveRef', () => {
  it('follows local $refs, through chains and escaped tokens, and returns anything else as it is', () => {
    const doc = {
      ...clone(),
      components: { schemas: {}, parameters: { 'a/b~c': { name: 'x', in: 'header' }, Alias: { $ref: '#/components/parameters/a~1b~0c' } } },
    } as OpenApiDocument;
    expect(resolveRef(doc, { $ref: '#/components/parameters/Alias' })).toEqual({ name: 'x', in: 'header' });
    const inline: { $ref?: string; name: string } = { name: 'y' };
    expect(resolveRef(doc, inline)).toBe(inline);
  });

  it('refuses external and dangling $refs', () => {
    expect(() => resolveRef(document, { $ref: 'other.yaml#/x' })).toThrow('only local $refs are supported');
    expect(() => resolveRef(document, { $ref: '#/components/parameters/Nothing' })).toThrow('points at nothing');
  });
});

describe('parametersOf', () => {
  it("lists an operation's parameters in order, inline ones as written and $refs followed", () => {
    const doc = {
      ...clone(),
      components: { schemas: {}, parameters: { Shared: { name: 'X-Shared', in: 'header' } } },
    } as OpenApiDocument;
    const inline = { name: 'id', in: 'path', required: true };
    const operation = { operationId: 'op', responses: {}, parameters: [inline, { $ref: '#/components/parameters/Shared' }] };
    expect(parametersOf(doc, operation)).toEqual([inline, { name: 'X-Shared', in: 'header' }]);
    expect(parametersOf(doc, { operationId: 'none', responses: {} })).toEqual([]);
  });
});
