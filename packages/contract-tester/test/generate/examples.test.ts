import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseParts, baseValue, exampleCases, sampleOne } from '../../src/generate/examples.js';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import { validValue } from '../../src/generate/valid-values.js';
import { buildRequest, NO_CREDENTIALS } from '../../src/generate/requests.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';

const document = parseSpec(readFileSync(GALLERY_SPEC, 'utf8'));
const api = readApiModel(document);
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;

describe('the examples phase', () => {
  it("sends every example of the spec, each in the operation's base request", () => {
    const { cases, warnings } = exampleCases(api, operation('createExhibition'), NO_CREDENTIALS);
    expect(warnings).toEqual([]);
    expect(cases.map(({ why, valid }) => `${why} ${valid}`)).toEqual(['example 1 of the application/json body true']);
    expect(JSON.parse(buildRequest(cases[0]!.parts).body!.toString())).toEqual({
      title: 'Bronze',
      room: 'East',
      price: 12.5,
      dates: ['2030-05-01'],
    });
    const hours = exampleCases(api, operation('listOpeningHours'), NO_CREDENTIALS).cases;
    expect(hours.map(({ parts }) => buildRequest(parts).target)).toEqual(['/api/opening-hours?from=2030-01-01']);
  });

  it('does not send an example its own schema refuses: it warns of it', () => {
    const broken = structuredClone(document);
    (broken.paths['/tickets']!['post'] as { requestBody: { content: Record<string, { example: unknown }> } }).requestBody.content[
      'application/json'
    ]!.example = { ticketType: 'vip' };
    const model = readApiModel(broken);
    const { cases, warnings } = exampleCases(
      model,
      model.operations.find(({ id }) => id === 'buyTicket')!,
      NO_CREDENTIALS,
    );
    expect(cases).toEqual([]);
    expect(warnings).toEqual(['buyTicket: example 1 of its application/json body is not valid against its schema; not sent']);
  });

  it('makes the same base request each time: examples first, then defaults, then a generated value', () => {
    const days = operation('listOpeningHours').parameters[1]!;
    expect(baseValue(days)).toBe(7);
    expect(baseValue(operation('getExhibition').parameters[0]!)).toMatch(/^[0-9a-f-]{36}$/);
    expect(baseParts(api, operation('getExhibition'), NO_CREDENTIALS)).toEqual(baseParts(api, operation('getExhibition'), NO_CREDENTIALS));
    expect(baseParts(api, operation('buyTicket'), NO_CREDENTIALS).bodyValue).toEqual({
      ticketType: 'general',
      date: '2030-05-02',
      email: 'ada@example.com',
    });
  });
});

describe('one value of a schema (sampleOne)', () => {
  it('is none when the schema has none, but the end of the budget is not swallowed as none', () => {
    expect(sampleOne(validValue({ type: 'string', minLength: 2 }))).toEqual(expect.any(String));
    setGenerationDeadline(performance.now() - 1);
    try {
      expect(() => sampleOne(validValue({ type: 'string', minLength: 2 }))).toThrow(DeadlineReached);
    } finally {
      setGenerationDeadline(undefined);
    }
  });
});
