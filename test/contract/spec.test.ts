import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { deferValidatorMetaSchema } from '../../src/http/internals/index.js';
import { parametersOf, resolveRef, type OpenApiDocument } from '../../src/contract/spec.js';

const contract = loadContract();
const document = contract.document;

function clone(): OpenApiDocument {
  return structuredClone(document);
}

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (the server skips this check to start faster)', async () => {
    deferValidatorMetaSchema(); // as in the server, where the meta-schema is compiled only when a check is asked for
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
    // The operations the interface names (pet-store-service-interface.md); the spec may add others.
    expect(contract.operations.map(({ operation }) => operation.operationId)).toEqual(
      expect.arrayContaining(['listPets', 'createPet', 'getPet']),
    );
    expect(contract.operations).toContainEqual(expect.objectContaining({ method: 'get', path: '/store/orders' }));
    for (const { operation } of contract.operations) {
      expect((operation as { security?: unknown }).security, operation.operationId).toBeUndefined();
    }
    expect((document as { security?: unknown }).security).toEqual([{ bearerAuth: [] }]);
  });
  // Which error responses each operation documents, and a description and an example on every
  // part, are lint rules (.spectral.yaml, test/spec/lint.test.ts): they fail before any test runs.
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
