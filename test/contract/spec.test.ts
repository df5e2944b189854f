import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import { patchValidator } from '../../src/http/middleware/validator-patches.js';
import type { OpenApiDocument, SchemaObject } from '../../src/contract/spec.js';

const contract = loadContract();
const document = contract.document;

function clone(): OpenApiDocument {
  return structuredClone(document);
}

function resolveRef<T>(value: T & { $ref?: string }): T {
  if (!value.$ref) return value;
  return value.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, token) => (node as Record<string, unknown>)[token], document) as T;
}

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (the server skips this check to start faster)', async () => {
    patchValidator(); // as in the server, where the meta-schema is compiled only when a check is asked for
    const app = express();
    app.use(
      OpenApiValidator.middleware({ apiSpec: clone() as never, validateApiSpec: true, validateRequests: false, validateSecurity: false }),
    );
    app.use((_req, res) => void res.status(204).end());
    app.use(((error, _req, res, _next) => void res.status(500).send(String(error))) as express.ErrorRequestHandler);
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
        const resolved = resolveRef<{ description?: string; content?: Record<string, { examples?: unknown }> }>(response);
        if (!resolved.description) missing.push(`${operation.operationId} ${status} description`);
        for (const [type, media] of Object.entries(resolved.content ?? {})) {
          if (!media.examples) missing.push(`${operation.operationId} ${status} ${type} example`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('has one table of stable error codes, each with a 4xx or 5xx status', () => {
    expect(Object.fromEntries(contract.errorCodes)).toEqual({
      validation_failed: 400,
      malformed_json: 400,
      invalid_cursor: 400,
      missing_api_key: 401,
      invalid_api_key: 401,
      pet_not_found: 404,
      route_not_found: 404,
      method_not_allowed: 405,
      operation_sunset: 410,
      payload_too_large: 413,
      unsupported_media_type: 415,
      internal_error: 500,
      not_implemented: 501,
      service_unavailable: 503,
    });
  });

  it('marks getPet deprecated with its dates and replacement', () => {
    expect(contract.deprecations).toEqual([
      expect.objectContaining({
        operationId: 'getPet',
        deprecatedAt: new Date('2026-11-21T00:00:00Z'),
        sunsetAt: new Date('2030-12-05T00:00:00Z'),
        replacement: { href: '/v1/pets', title: 'GET /v1/pets with the status filter' },
      }),
    ]);
  });

  it('caps request bodies at no more than 64 KiB', () => {
    expect(contract.maxRequestBodyBytes).toBeGreaterThan(0);
    expect(contract.maxRequestBodyBytes).toBeLessThanOrEqual(64 * 1024);
  });

  describe('is checked at start-up', () => {
    it('refuses a deprecated operation without x-deprecation', () => {
      const broken = clone();
      delete (broken.paths['/pets/{petId}']!['get'] as Record<string, unknown>)['x-deprecation'];
      expect(() => contractFromDocument(broken)).toThrow('getPet is deprecated but has no x-deprecation');
    });

    it('refuses a sunset that is not a date', () => {
      const broken = clone();
      (broken.paths['/pets/{petId}']!['get'] as Record<string, Record<string, unknown>>)['x-deprecation']!['sunsetAt'] = 'soon';
      expect(() => contractFromDocument(broken)).toThrow('getPet x-deprecation.sunsetAt must be an RFC 3339 date-time');
    });

    it('refuses an error code without a status', () => {
      const broken = clone();
      delete (broken.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[])[0]!['x-http-status'];
      expect(() => contractFromDocument(broken)).toThrow(/ErrorCode entry .* needs a string const and an x-http-status/);
    });

    it('refuses servers that disagree on the base path', () => {
      const broken = clone();
      broken.servers![1]!.url = 'https://{host}/v2';
      expect(() => contractFromDocument(broken)).toThrow('servers in openapi.yaml disagree on the base path');
    });
  });
});
