import { describe, expect, it } from 'vitest';
import { planRun } from '../../src/run/runner.js';
import { parseSpec } from '../../src/spec/load.js';

/** A spec of `count` resources, each with a create (its 201 giving the id) and a read of one. */
function resources(count: number) {
  const thing = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } };
  const json = { 'application/json': { schema: thing } };
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    paths[`/things${index}`] = {
      post: { operationId: `add${index}`, requestBody: { content: json }, responses: { '201': { description: 'made', content: json } } },
    };
    paths[`/things${index}/{id}`] = {
      get: {
        operationId: `get${index}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'it', content: json }, '404': { description: 'none' } },
      },
    };
  }
  return parseSpec(JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }));
}

describe('a spec of hundreds of operations, half of them creates', () => {
  it('is planned whole, each create with the operations on what it makes (found once per spec, not per operation)', () => {
    const count = 200;
    const plan = planRun({ baseUrl: 'http://127.0.0.1:1', requests: 100, seed: 1, document: resources(count) });
    expect(plan.tested).toHaveLength(2 * count);
    expect(plan.skipped).toEqual([]);
    expect(plan.scenarios.map(({ name }) => name)).toContain('stateful: add199 lifecycle');
    expect(plan.inferredLinks).toContain("add199 201 → get199 (inferred: id from the body's id)");
    // Seconds of CPU alone, many times that on a loaded machine: the suite's limit, not a measure of speed.
  }, 120_000);
});
