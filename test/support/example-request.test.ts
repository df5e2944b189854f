import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { readContract } from '../../src/contract/read-contract.js';
import { exampleRequest, sendExampleRequest } from './example-request.js';
import { createTestApi } from './test-app.js';

describe('exampleRequest', () => {
  it("makes up a value a parameter's schema accepts where the document gives no example", () => {
    const document = structuredClone(loadContract().document);
    document.paths['/venues/{venueId}/days/{day}'] = {
      get: {
        operationId: 'getVenueDay',
        parameters: [
          { name: 'venueId', in: 'path', required: true, schema: { type: 'integer', minimum: 5 } },
          { name: 'day', in: 'path', required: true, schema: { type: 'string', format: 'date' } },
          { name: 'kind', in: 'query', required: true, schema: { type: 'string', enum: ['big', 'small'] } },
          { name: 'X-Code', in: 'header', required: true, schema: { type: 'string', minLength: 3 } },
        ],
        responses: { '204': { description: 'Done.' } },
      },
    };
    expect(exampleRequest('getVenueDay', readContract(document))).toMatchObject({
      url: '/v1/venues/5/days/2026-01-01?kind=big',
      headers: { 'X-Code': 'aaa' },
    });
  });

  it('fills the path, the required query and header parameters and the body from their first examples', () => {
    const document = structuredClone(loadContract().document);
    document.paths['/things/{thingId}'] = {
      parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string', examples: ['a b'] } }],
      put: {
        operationId: 'putThing',
        parameters: [
          { name: 'mode', in: 'query', required: true, example: 'fast' },
          { name: 'extra', in: 'query', example: 'left out' },
          { name: 'X-Version', in: 'header', required: true, examples: { first: { value: 3 }, second: { value: 4 } } },
          { $ref: '#/components/parameters/RequestId' },
        ],
        requestBody: { content: { 'application/merge-patch+json': { examples: { one: { value: { name: 'Rex' } } } } } },
        responses: { '204': { description: 'Done.' } },
      },
    };
    expect(exampleRequest('putThing', readContract(document))).toEqual({
      operation: 'PUT /v1/things/{thingId}',
      method: 'put',
      url: '/v1/things/a%20b?mode=fast',
      headers: { 'X-Version': '3', 'Content-Type': 'application/merge-patch+json' },
      body: '{"name":"Rex"}',
    });
  });

  it('refuses an operation the spec does not have', () => {
    expect(() => exampleRequest('noSuchOperation')).toThrow('openapi.yaml has no operation noSuchOperation');
  });

  it("makes, from openapi.yaml's examples, a request the server accepts for every operation", async () => {
    const t = await createTestApi();
    for (const { operation } of loadContract().operations) {
      const res = await sendExampleRequest(t.origin, exampleRequest(operation.operationId), t.auth);
      expect([400, 413, 415], `${operation.operationId}: ${JSON.stringify(res.body)}`).not.toContain(res.status);
    }
  });
});
