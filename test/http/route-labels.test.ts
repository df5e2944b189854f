import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import { routeLabels, UNMATCHED_ROUTE } from '../../src/http/route-labels.js';

const routeOf = routeLabels(loadContract());
const label = (target: string) => routeOf({ originalUrl: target } as IncomingMessage & { originalUrl: string });

describe('route labels', () => {
  it.each([
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets?limit=5&status=sold', '/v1/pets'],
    ['/v1/pets/1', '/v1/pets/{petId}'],
    ['/v1/pets/not-a-number', '/v1/pets/{petId}'],
    ['/v1/pets/7?x=1', '/v1/pets/{petId}'],
    ['/v1/store/orders', '/v1/store/orders'],
    ['/healthz', '/healthz'],
    ['/readyz', '/readyz'],
    ['/openapi.json', '/openapi.json'],
    ['/openapi.yaml', '/openapi.yaml'],
    ['/docs', '/docs'],
    ['/docs/init.js', '/docs/{file}'],
    ['/docs/assets/swagger-ui.css', '/docs/assets/{file}'],
  ])('labels %s as %s, the template openapi.yaml (or the public routes) spell', (target, route) => {
    expect(label(target)).toBe(route);
  });

  it.each([
    '/',
    '/metrics',
    '/v1',
    '/v1/',
    '/v1/pets/',
    '/v1/Pets',
    '/v1/pets/1/2',
    '/v1/pets1',
    '/v2/pets',
    '/healthz/',
    `/${'x'.repeat(5000)}`,
  ])('gives %s the one shared value for paths that match nothing', (target) => {
    expect(label(target)).toBe(UNMATCHED_ROUTE);
  });

  it('reads the target as it arrived when no Express request is there yet', () => {
    expect(routeOf({ url: '/v1/pets/3' } as IncomingMessage)).toBe('/v1/pets/{petId}');
  });

  it("labels each version's operations and published document under its own base path, when two are served", () => {
    const v1 = loadContract();
    const document = structuredClone(v1.document);
    for (const server of document.servers!) server.url = server.url.replace(/\/v1$/, '/v2');
    const both = routeLabels(contractFromDocument(document), v1);
    const of = (target: string) => both({ url: target } as IncomingMessage);
    expect(of('/v2/pets/3')).toBe('/v2/pets/{petId}');
    expect(of('/v1/pets/3')).toBe('/v1/pets/{petId}');
    expect(of('/v1/openapi.json')).toBe('/v1/openapi.json');
    expect(of('/v2/docs')).toBe('/v2/docs');
    expect(of('/openapi.json')).toBe('/openapi.json');
    for (const target of ['/v3/pets', '/V1/pets', '/v1.0/pets', '/v2/docs/']) expect(of(target)).toBe(UNMATCHED_ROUTE);
  });
});
