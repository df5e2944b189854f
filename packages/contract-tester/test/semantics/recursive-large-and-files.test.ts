import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { NO_CREDENTIALS, validBodies } from '../../src/generate/requests.js';
import { negativeCases } from '../../src/generate/negative-requests.js';
import { planRun } from '../../src/run/runner.js';
import { setGenerationDeadline } from '../../src/deadline.js';
import { EMPTY_PROFILE } from '../../src/config.js';
import { loadSpec, parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';

const options = { baseUrl: 'http://127.0.0.1:1/api', requests: 100, seed: 1 };

/** A spec whose operations each take (POST) and answer one schema of `schemas`. */
function spec(version: '3.0.3' | '3.1.0', schemas: Record<string, unknown>, bodies: string[]): OpenApiDocument {
  const paths = Object.fromEntries(
    bodies.map((name, index) => {
      const json = { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } };
      const post = {
        operationId: `add${index}`,
        requestBody: { required: true, content: json },
        responses: { '201': { description: 'made', content: json }, '400': { description: 'refused' } },
      };
      return [`/things${index}`, { post }];
    }),
  );
  return parseSpec(JSON.stringify({ openapi: version, info: { title: 't', version: '1' }, paths, components: { schemas } }));
}

function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

for (const version of ['3.0.3', '3.1.0'] as const) {
  describe(`a recursive schema (a tree node that holds nodes), ${version}`, () => {
    const document = spec(
      version,
      {
        Node: {
          type: 'object',
          required: ['name', 'children'],
          properties: {
            name: { type: 'string', maxLength: 5 },
            parent: { $ref: '#/components/schemas/Node' },
            children: { type: 'array', maxItems: 3, items: { $ref: '#/components/schemas/Node' } },
          },
        },
      },
      ['Node'],
    );
    const api = readApiModel(document);
    const checker = new ContractChecker(document);
    const valid = (body: unknown) =>
      checker.violations({ method: 'POST', url: '/things0', status: 201, headers: { 'content-type': 'application/json' }, body, text: '' })
        .length === 0;

    it('generation ends, with trees of bounded depth, each valid by the whole recursive schema', () => {
      const bodies = fc
        .sample(validBodies(api.operations[0]!)!, { numRuns: 100, seed: 1 })
        .map((body) => (body as { value: unknown }).value);
      for (const body of bodies) expect(valid(body), JSON.stringify(body)).toBe(true);
      const depths = bodies.map(depth);
      // A node, its children's nodes, and theirs: expanded two rounds, then left out where allowed.
      expect(Math.max(...depths)).toBeGreaterThan(2);
      expect(Math.max(...depths)).toBeLessThanOrEqual(8);
      const broken = fc.sample(negativeCases(api, api.operations[0]!, 'missing required', NO_CREDENTIALS)!, { numRuns: 50, seed: 2 });
      for (const { request } of broken.filter(({ request }) => request.body))
        expect(valid(JSON.parse(request.body!.toString('utf8')))).toBe(false);
    });

    it('is planned like any other', () => {
      const plan = planRun({ ...options, document });
      expect(plan.tested).toEqual(['add0']);
      expect(plan.skipped).toEqual([]);
    });
  });

  describe(`very large schemas: hundreds of properties, allOf sixty deep, ${version}`, () => {
    const wide = {
      type: 'object',
      required: Array.from({ length: 30 }, (_, index) => `p${index * 10}`),
      properties: Object.fromEntries(
        Array.from({ length: 400 }, (_, index) => [`p${index}`, index % 3 ? { type: 'string', maxLength: 8 } : { type: 'integer' }]),
      ),
    };
    // Level0 is allOf [Level1, its own part], … down to Level59: each level adds a required property.
    const levels = Object.fromEntries(
      Array.from({ length: 60 }, (_, index) => [
        `Level${index}`,
        {
          allOf: [
            ...(index < 59 ? [{ $ref: `#/components/schemas/Level${index + 1}` }] : []),
            { type: 'object', required: [`l${index}`], properties: { [`l${index}`]: { type: 'boolean' } } },
          ],
        },
      ]),
    );
    const document = spec(version, { Wide: wide, ...levels }, ['Wide', 'Level0']);
    const api = readApiModel(document);

    it('valid bodies have every required property, each valid; so many of them are made', () => {
      for (const operation of api.operations) {
        const bodies = fc.sample(validBodies(operation)!, { numRuns: 20, seed: 3 }).map((body) => (body as { value: object }).value);
        expect(bodies).toHaveLength(20);
        const required = operation.id === 'add0' ? wide.required : Array.from({ length: 60 }, (_, index) => `l${index}`);
        for (const body of bodies) for (const name of required) expect(body).toHaveProperty(name);
      }
    });

    // Planning 400 operations of these schemas takes seconds of CPU alone, many times that on a
    // loaded machine: the limit is the suite's own, not a measure of speed.
    it('planned in full without a budget; with --max-time, the plan ends and says what it left out', () => {
      const full = planRun({ ...options, document });
      expect(full.tested).toEqual(['add0', 'add1']);
      expect(full.skipped).toEqual([]);
      // Many operations of the same schemas, and a budget spent before planning is through. A clock
      // that ticks once per reading puts the budget's end at twice what reading the spec takes (as
      // the runner reads it: the operations, then the schemas), whatever the machine's load.
      const many = () =>
        spec(
          version,
          { Wide: wide, ...levels },
          Array.from({ length: 400 }, (_, index) => (index % 2 ? 'Wide' : 'Level0')),
        );
      let clock = 0;
      const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
      try {
        const probe = many();
        setGenerationDeadline(Number.MAX_SAFE_INTEGER);
        readApiModel(probe);
        new ContractChecker(probe, { basePath: '', profile: EMPTY_PROFILE });
        setGenerationDeadline(undefined);
        const reading = clock;
        clock = 0;
        const cut = planRun({ ...options, document: many(), maxTimeSeconds: (2 * reading + 100) / 1000, startedAt: 0 });
        expect(cut.tested.length + cut.skipped.length).toBe(400);
        expect(cut.skipped.length).toBeGreaterThan(0);
        for (const { reason } of cut.skipped) expect(reason).toBe('not planned: --max-time was reached while planning');
      } finally {
        now.mockRestore();
      }
    }, 120_000);
  });
}

describe('$refs to other files (a spec of several files in folders)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'multi-file-'));
  mkdirSync(join(dir, 'schemas'));
  mkdirSync(join(dir, 'common'));
  const write = (path: string, value: unknown) => writeFileSync(join(dir, path), JSON.stringify(value));
  write('openapi.json', {
    openapi: '3.1.0',
    info: { title: 'files', version: '1' },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          parameters: [{ $ref: 'parameters.json#/Limit' }],
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'array', items: { $ref: 'schemas/pet.json#/Pet' } } } },
            },
          },
        },
        post: {
          operationId: 'addPet',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: 'schemas/pet.json#/Pet' } } } },
          responses: { '201': { $ref: 'responses.json#/Created' }, '400': { description: 'refused' } },
        },
      },
    },
  });
  write('parameters.json', { Limit: { name: 'limit', in: 'query', schema: { $ref: 'common/types.json#/Limit' } } });
  write('responses.json', {
    Created: { description: 'made', content: { 'application/json': { schema: { $ref: 'schemas/pet.json#/Pet' } } } },
  });
  // A reference up a folder, and one to a whole file.
  write('schemas/pet.json', {
    Pet: {
      type: 'object',
      required: ['id', 'name', 'tag'],
      additionalProperties: false,
      properties: { id: { $ref: '../common/types.json#/Id' }, name: { type: 'string', maxLength: 9 }, tag: { $ref: 'tag.json' } },
    },
  });
  write('schemas/tag.json', { type: 'string', enum: ['cat', 'dog'] });
  write('common/types.json', { Id: { type: 'integer', minimum: 1 }, Limit: { type: 'integer', minimum: 1, maximum: 10 } });

  it('are read, each file once, and their schemas used to make requests and to judge answers', async () => {
    const document = await loadSpec(join(dir, 'openapi.json'));
    const api = readApiModel(document);
    const [listPets, addPet] = api.operations;
    expect(listPets!.parameters[0]).toMatchObject({ name: 'limit', schema: { type: 'integer', maximum: 10 } });
    const checker = new ContractChecker(document);
    const created = (body: unknown) =>
      checker.violations({ method: 'POST', url: '/pets', status: 201, headers: { 'content-type': 'application/json' }, body, text: '' });
    for (const body of fc.sample(validBodies(addPet!)!, { numRuns: 50, seed: 4 }))
      expect(created((body as { value: unknown }).value)).toEqual([]);
    expect(created({ id: 0, name: 'a', tag: 'cat' }).join('\n')).toMatch(/id/);
    expect(created({ id: 1, name: 'a', tag: 'bird' }).join('\n')).toMatch(/tag/);
    expect(planRun({ ...options, document }).tested).toEqual(['listPets', 'addPet']);
  });
});
