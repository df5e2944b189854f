import { beforeAll, describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract, type Contract } from '../../../src/contract/contract.js';
import type { OpenApiDocument, SchemaObject } from '../../../src/contract/spec.js';
import { capturingLogger } from '../../support/log-capture.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const PARAMETER_SINCE = '2026-12-01T00:00:00Z';
const PROPERTY_SINCE = '2026-10-01T00:00:00Z';

/** openapi.yaml with listPets' `status` query parameter and NewPet's `status` property deprecated. */
function deprecatingSpec(): Contract {
  const document: OpenApiDocument = structuredClone(loadContract().document);
  const parameters = document.components['parameters'] as Record<string, Record<string, unknown>>;
  const status = Object.values(parameters).find((parameter) => parameter['in'] === 'query' && parameter['name'] === 'status')!;
  Object.assign(status, { deprecated: true, 'x-deprecation': { deprecatedAt: PARAMETER_SINCE, replacement: 'state' } });
  const properties = document.components.schemas['NewPet']!['properties'] as Record<string, SchemaObject>;
  properties['status'] = { ...properties['status'], deprecated: true, 'x-deprecation': { deprecatedAt: PROPERTY_SINCE } };
  return contractFromDocument(document);
}

describe('deprecated parameters and properties, when a request uses them', () => {
  let t: TestApi;
  let log: ReturnType<typeof capturingLogger>;
  beforeAll(async () => {
    log = capturingLogger('warn');
    t = await createTestApi({ contract: deprecatingSpec(), logger: log.logger });
  });

  it('are read from the spec: each with its date and replacement', () => {
    expect(deprecatingSpec().deprecatedInputs.get('listPets')).toEqual([
      { in: 'query', name: 'status', field: 'query.status', deprecatedAt: new Date(PARAMETER_SINCE), replacement: 'state' },
    ]);
    expect(deprecatingSpec().deprecatedInputs.get('createPet')).toEqual([
      { in: 'body', name: 'status', field: 'body.status', deprecatedAt: new Date(PROPERTY_SINCE) },
    ]);
    expect(loadContract().deprecatedInputs.size).toBe(0);
  });

  it('answer a query parameter with Deprecation, a Link naming it, and one warning', async () => {
    const before = log.lines.length;
    const res = await t.api.get('/v1/pets?status=sold').set(t.auth).expect(200);
    expect(res.headers['deprecation']).toBe(`@${Date.parse(PARAMETER_SINCE) / 1000}`);
    expect(res.headers['link']).toBe(
      '</v1/docs#/animals/listPets>; rel="deprecation"; title="listPets: deprecated query parameter status (use state)"',
    );
    const warnings = log.lines.slice(before).filter((line) => line['msg'] === 'request uses deprecated input');
    expect(warnings).toEqual([expect.objectContaining({ level: 40, operation: 'listPets', deprecated: ['query.status'] })]);
  });

  it('answer a body property the same way', async () => {
    const before = log.lines.length;
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 1, status: 'sold' }).expect(201);
    expect(res.headers['deprecation']).toBe(`@${Date.parse(PROPERTY_SINCE) / 1000}`);
    expect(res.headers['link']).toContain(
      '</v1/docs#/animals/createPet>; rel="deprecation"; title="createPet: deprecated body property status"',
    );
    const warnings = log.lines.slice(before).filter((line) => line['msg'] === 'request uses deprecated input');
    expect(warnings).toEqual([expect.objectContaining({ operation: 'createPet', deprecated: ['body.status'] })]);
  });

  it('stay silent for requests that do not use them', async () => {
    const before = log.lines.length;
    const listed = await t.api.get('/v1/pets?limit=5').set(t.auth).expect(200);
    const created = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Tom', categoryId: 1 }).expect(201);
    for (const res of [listed, created]) expect(res.headers['deprecation']).toBeUndefined();
    expect(log.lines.slice(before).filter((line) => line['msg'] === 'request uses deprecated input')).toEqual([]);
  });

  it('refuse to start without the date the Deprecation header needs', () => {
    const document: OpenApiDocument = structuredClone(loadContract().document);
    const properties = document.components.schemas['NewPet']!['properties'] as Record<string, SchemaObject>;
    properties['status'] = { ...properties['status'], deprecated: true };
    expect(() => contractFromDocument(document)).toThrow('createPet body.status is deprecated: it needs x-deprecation.deprecatedAt');
  });
});
