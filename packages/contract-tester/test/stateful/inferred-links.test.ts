import { afterEach, describe, expect, it } from 'vitest';
import { failureTitle } from '../../src/report/report.js';
import { planRun, runContractTests, type RunResult } from '../../src/run/runner.js';
import { readApiModel } from '../../src/spec/model.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';
import { inferLinks, LOCATION_EXPRESSION, typesFit, valueFits } from '../../src/stateful/inferred-links.js';
import type { Bug } from '../support/test-bed/bed-server.js';
import { depotSpec, startDepot } from '../support/depot.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const id = (name: string, type = 'integer') => ({ name, in: 'path', required: true, schema: { type } });

/** Owners and their pets, no links but one: createPet's 201 declares its link to getPet. */
const PETS: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/owners': {
      post: {
        operationId: 'createOwner',
        responses: { '201': { description: 'made', ...json({ type: 'object', properties: { id: { type: 'string' } } }) } },
      },
    },
    '/owners/{ownerId}': {
      get: { operationId: 'getOwner', parameters: [id('ownerId', 'string')], responses: { '200': { description: 'ok' } } },
    },
    '/owners/{ownerId}/pets': {
      parameters: [id('ownerId', 'string')],
      post: {
        operationId: 'createPet',
        responses: {
          '201': {
            description: 'made',
            ...json({ allOf: [{ type: 'object', properties: { petId: { type: 'integer' } } }] }),
            links: { read: { operationId: 'getPet', parameters: { ownerId: '$request.path.ownerId', petId: '$response.body#/petId' } } },
          },
          '400': { description: 'no' },
        },
      },
    },
    '/owners/{ownerId}/pets/{petId}': {
      parameters: [id('ownerId', 'string'), id('petId')],
      get: { operationId: 'getPet', responses: { '200': { description: 'ok' } } },
      delete: { operationId: 'deletePet', responses: { '204': { description: 'gone' } } },
    },
    '/owners/{ownerId}/pets/{petId}/photos': {
      parameters: [id('ownerId', 'string'), id('petId')],
      get: { operationId: 'listPhotos', responses: { '200': { description: 'ok' } } },
    },
  },
  components: { schemas: {} },
};

describe('links inferred from the schemas', () => {
  it('link a POST’s success to each operation on what it makes, the id from the body, the producer’s path parameters along', () => {
    const api = readApiModel(PETS);
    expect(inferLinks(api)).toBe(2);
    const links = (operationId: string, status: string) =>
      api.operations.find(({ id: candidate }) => candidate === operationId)!.responses.find((response) => response.status === status)!
        .links;
    expect(links('createOwner', '201')).toEqual([
      {
        name: "getOwner (inferred: ownerId from the body's id)",
        targetOperationId: 'getOwner',
        parameters: { ownerId: '$response.body#/id' },
        inferred: 'body',
      },
    ]);
    // The declared link to getPet wins; deletePet's is inferred beside it; nothing below the resource, nothing from a 400.
    expect(links('createPet', '201').map(({ name }) => name)).toEqual(['read', "deletePet (inferred: petId from the body's petId)"]);
    expect(links('createPet', '201')[1]!.parameters).toEqual({ ownerId: '$request.path.ownerId', petId: '$response.body#/petId' });
    expect(links('createPet', '400')).toEqual([]);
  });

  it('take the id from Location where no body property of the parameter’s name, or `id`, fits its type', () => {
    const api = readApiModel(depotSpec());
    inferLinks(api);
    const [created] = api.operations.find(({ id: candidate }) => candidate === 'sendParcel')!.responses;
    expect(created!.links.map(({ targetOperationId, parameters, inferred }) => [targetOperationId, parameters, inferred])).toEqual([
      ['getParcel', { parcelId: LOCATION_EXPRESSION }, 'location'],
      ['collectParcel', { parcelId: LOCATION_EXPRESSION }, 'location'],
    ]);
    // The body's parcelId is a tracking code: its `id` fills the integer parameter.
    const withBodies = readApiModel(depotSpec(true));
    inferLinks(withBodies);
    expect(withBodies.operations[0]!.responses[0]!.links[0]!.parameters).toEqual({ parcelId: '$response.body#/id' });
  });

  it('are listed by a dry run', () => {
    const plan = planRun({ baseUrl: 'http://127.0.0.1:9/api', document: depotSpec(), requests: 10, seed: 1 });
    expect(plan.inferredLinks).toEqual([
      'sendParcel 201 → getParcel (inferred: parcelId from Location)',
      'sendParcel 201 → collectParcel (inferred: parcelId from Location)',
    ]);
  });

  it('fill a parameter only with values of a type it takes', () => {
    expect(typesFit({ type: 'integer' }, { type: 'string' })).toBe(true);
    expect(typesFit({ type: 'integer' }, { type: 'string', format: 'uuid' })).toBe(false);
    expect(typesFit({ type: 'string' }, { type: 'integer' })).toBe(false);
    expect(typesFit({ type: ['string', 'null'] }, { type: 'string' })).toBe(true);
    expect(typesFit({}, { type: 'integer' })).toBe(true);
    expect(valueFits(7, { type: 'integer' })).toBe(true);
    expect(valueFits('7', { type: 'integer' })).toBe(true);
    expect(valueFits('P-7', { type: 'integer' })).toBe(false);
    expect(valueFits(7.5, { type: 'integer' })).toBe(false);
    expect(valueFits({ id: 7 }, {})).toBe(false);
  });
});

describe('the stateful phase on a spec without links', { timeout: 120_000 }, () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function depotRun(bug?: Bug, bodies = false): Promise<RunResult> {
    const server = await startDepot(bug, bodies);
    closers.push(server.close);
    return runContractTests({ baseUrl: server.baseUrl, document: depotSpec(bodies), requests: 150, seed: 5 });
  }

  it('runs the lifecycle of what a create makes, learned from Location alone, and passes a correct server', async () => {
    const run = await depotRun();
    expect(run.failures.map(failureTitle)).toEqual([]);
    const lifecycle = run.scenarios.find(({ name }) => name === 'stateful: sendParcel lifecycle, each operation once')!;
    expect(lifecycle.status).toBe('passed');
    expect(run.scenarios.map(({ name }) => name)).toContain('stateful: sequences');
    expect(run.notExercised).toEqual([]);
    expect(run.coverage!.operations.map(({ exercised }) => exercised)).toEqual([true, true, true]);
  });

  it('finds a deleted parcel still served (use_after_free) and a create lost (ensure_resource_availability)', async () => {
    const served = await depotRun('serves-deleted');
    expect(new Set(served.failures.map(({ check }) => check))).toEqual(new Set(['use_after_free']));
    const lost = await depotRun('loses-creates');
    expect(new Set(lost.failures.map(({ check }) => check))).toEqual(new Set(['ensure_resource_availability']));
  });

  it('never takes a body property of a type the path parameter refuses for the id', async () => {
    expect((await depotRun(undefined, true)).failures.map(failureTitle)).toEqual([]);
    const lost = await depotRun('loses-creates', true);
    expect(new Set(lost.failures.map(({ check }) => check))).toEqual(new Set(['ensure_resource_availability']));
  });
});
