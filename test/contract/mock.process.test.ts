import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { startPrism, type RunningPrism } from '../support/prism.js';

const { document } = loadContract();

/** The value of a named example of a JSON response in openapi.yaml. */
function example(response: string[], name: string): unknown {
  return [...response, 'content', 'application/json', 'examples', name, 'value'].reduce<unknown>(
    (node, key) => (node as Record<string, unknown>)[key],
    document,
  );
}

/**
 * `npm run mock` (Prism on openapi.yaml) for client developers. Its answers are Prism's, made from
 * the spec's examples, so the test compares them with those examples rather than with the server.
 * Prism picks the schema's example unless `Prefer: example=NAME` names one of the response's.
 */
describe('the mock server', () => {
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await startPrism(['mock', 'openapi.yaml']);
  });
  afterAll(async () => {
    await prism?.stop();
  });

  it('answers a request with a bearer key with the documented example', async () => {
    const response = await fetch(`${prism.url}/pets`, { headers: { Authorization: 'Bearer any-key', Prefer: 'example=page' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(example(['paths', '/pets', 'get', 'responses', '200'], 'page'));
  });

  it('answers 401 with a Bearer challenge and an Error without one, as the API does', async () => {
    const response = await fetch(`${prism.url}/pets`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="pet-store"/);
    // Which Error: Prism shows the Error schema's example here, whatever Prefer says (docs/publishing.md).
    expect(await response.json()).toEqual((document.components.schemas['Error']!['examples'] as unknown[])[0]);
  });
});
