import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenApiDocument } from '../../src/spec/openapi.js';

/**
 * Another API than the pet store, to show the contract tester takes everything from the spec it is
 * given: one operation with an integer query parameter, no credentials, no Error object.
 */
export const THINGS_SPEC: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Things', version: '0.1.0' },
  servers: [{ url: 'http://localhost/api' }],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 10 } }],
        responses: {
          '200': { description: 'Some things.', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
          '400': { description: 'A bad limit.' },
        },
      },
    },
  },
  components: { schemas: {} },
};

/**
 * A server that keeps THINGS_SPEC: exact paths, HEAD as GET, 405 with Allow, canonical integers only.
 * With `lenient`, it takes any positive limit (11 passes), a fault to find.
 */
export async function startThingsServer(lenient = false): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((request, response) => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
    const url = new URL(request.url!, 'http://x');
    if (url.pathname !== '/api/things') return response.writeHead(404).end();
    if (request.method !== 'GET' && request.method !== 'HEAD') return response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    const limit = url.searchParams.get('limit');
    let valid = true;
    try {
      decodeURIComponent(url.search);
    } catch {
      valid = false;
    }
    if (limit !== null) {
      const number = Number(limit);
      valid &&= /^[1-9][0-9]*$/.test(limit) && Number.isInteger(number) && number >= 1 && (lenient || number <= 10);
    }
    if (!valid) return response.writeHead(400).end();
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(request.method === 'HEAD' ? undefined : '["a"]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` };
}
