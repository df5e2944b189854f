import { beforeAll, describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../../src/contract/contract.js';
import type { OpenApiDocument } from '../../../src/contract/spec.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

/**
 * Each string format, as a property of NewPet in a copy of the spec (the spec itself may use none
 * of them yet): values the format's RFC allows, and values of the right shape it does not (an
 * impossible date, a date-time without its offset, ...), which ajv-formats' `fast` mode let through.
 */
const FORMATS: Record<string, { property: string; valid: string[]; invalid: string[] }> = {
  date: {
    property: 'birthDate',
    valid: ['2024-02-29', '2000-02-29', '2026-12-31'],
    invalid: ['2021-02-29', '2026-02-30', '2020-13-01', '1900-02-29', '2026-04-31', '2026-00-10', '2026-1-01', '2026-01-01T00:00:00Z'],
  },
  'date-time': {
    property: 'seenAt',
    valid: ['2026-02-28T12:00:00Z', '2024-02-29T23:59:59.5+05:30', '2026-06-30t08:00:00-01:00'],
    invalid: [
      '2026-02-28T12:00:00',
      '2026-02-30T12:00:00Z',
      '2026-02-28T24:00:00Z',
      '2026-02-28T12:60:00Z',
      '2026-02-28T12:00:00+24:00',
      '2026-02-28',
    ],
  },
  time: {
    property: 'feedingTime',
    valid: ['23:59:59Z', '08:30:00.25+01:00'],
    invalid: ['08:30:00', '24:00:00Z', '08:61:00Z', '08:30:00+01:60'],
  },
  email: { property: 'ownerEmail', valid: ['rex@example.com'], invalid: ['rex@', 'rex.@example.com', 'rex@localhost', 'rex @example.com'] },
  uri: {
    property: 'homepage',
    valid: ['https://example.com/pets?id=1', 'urn:isbn:0451450523'],
    invalid: ['example.com/pets', 'https://example.com/%zz'],
  },
  uuid: {
    property: 'chipId',
    valid: ['123e4567-e89b-12d3-a456-426614174000'],
    invalid: ['123e4567-e89b-12d3-a456-42661417400', '123e4567e89b12d3a456426614174000'],
  },
};

function contractWithFormats() {
  const document = structuredClone(loadContract().document) as OpenApiDocument & {
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  for (const [format, { property }] of Object.entries(FORMATS))
    document.components.schemas['NewPet']!.properties[property] = { type: 'string', format };
  return contractFromDocument(document);
}

describe('formats, checked in full (the calendar, the clock, offsets, RFC syntax)', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi({ contract: contractWithFormats() });
  });
  const cases = (kind: 'valid' | 'invalid') =>
    Object.entries(FORMATS).flatMap(([format, values]) => values[kind].map((value) => [format, value, values.property] as const));

  it.each(cases('invalid'))('refuses the %s %j with 400, storing nothing', async (format, value, property) => {
    const before = await t.storage.listPets({ limit: 100 });
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'Rex', categoryId: 1, [property]: value })
      .expect(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      status: 400,
      message: `Invalid request: body.${property} must match format "${format}".`,
    });
    expect(await t.storage.listPets({ limit: 100 })).toEqual(before);
  });

  it.each(cases('valid'))('takes the %s %j', async (_format, value, property) => {
    await t.api
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'Rex', categoryId: 1, [property]: value })
      .expect(201);
  });
});
