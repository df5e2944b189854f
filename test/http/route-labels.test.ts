import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
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
});
