import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { coverageCases } from '../../src/generate/coverage.js';
import { negativeCases } from '../../src/generate/negative-requests.js';
import { NO_CREDENTIALS, validBodies } from '../../src/generate/requests.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';

/**
 * Schema semantics on small specs, in both directions: what a request may carry (valid bodies,
 * which invalid ones are negative cases) and what a response may (the response check).
 */

/** POST /notes takes a Note and answers one: a nickname that may be null, a title that may not, and formatted values. */
function notesSpec(version: '3.0.3' | '3.1.0'): OpenApiDocument {
  const nullable = version === '3.0.3' ? { type: 'string', nullable: true } : { type: ['string', 'null'] };
  const note = {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'nickname', 'day', 'at', 'id', 'email'],
    properties: {
      title: { type: 'string', maxLength: 20 },
      nickname: { ...nullable, maxLength: 10 },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
      email: { type: 'string', format: 'email' },
    },
  };
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } };
  return parseSpec(
    JSON.stringify({
      openapi: version,
      info: { title: 'notes', version: '1' },
      paths: {
        '/notes': {
          post: {
            operationId: 'addNote',
            requestBody: { required: true, content: json },
            responses: { '201': { description: 'made', content: json }, '400': { description: 'refused' } },
          },
        },
      },
      components: { schemas: { Note: note } },
    }),
  );
}

const good = {
  title: 'a',
  nickname: 'n',
  day: '2024-02-29',
  at: '2024-02-29T23:59:60+05:30',
  id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  email: 'a@example.com',
};

for (const version of ['3.0.3', '3.1.0'] as const) {
  describe(`nullable (${version === '3.0.3' ? 'nullable: true' : 'type: [string, "null"]'}) and formats, ${version}`, () => {
    const document = notesSpec(version);
    const api = readApiModel(document);
    const [addNote] = api.operations;
    const checker = new ContractChecker(document);
    const answer = (body: unknown) =>
      checker.violations({
        method: 'POST',
        url: '/notes',
        status: 201,
        headers: { 'content-type': 'application/json' },
        body,
        text: JSON.stringify(body),
      });

    it('a request may send null where null is allowed, and only there', () => {
      const bodies = fc.sample(validBodies(addNote!)!, { numRuns: 200, seed: 1 }).map((body) => (body as { value: typeof good }).value);
      expect(bodies.some(({ nickname }) => nickname === null)).toBe(true);
      expect(bodies.some(({ title }) => title === null)).toBe(false);
      const wrongTypes = fc
        .sample(negativeCases(api, addNote!, 'wrong type', NO_CREDENTIALS)!, { numRuns: 300, seed: 2 })
        .map(({ request, why }) => ({ why, body: JSON.parse(request.body!.toString('utf8')) as Record<string, unknown> }));
      // null breaks the title, never the nickname.
      const of = (field: string) => wrongTypes.filter(({ why }) => why.startsWith(`body.${field}:`)).map(({ body }) => body[field]);
      expect(of('title')).toContain(null);
      expect(of('nickname').length).toBeGreaterThan(0);
      expect(of('nickname')).not.toContain(null);
    });

    it('a response may carry null where null is allowed; elsewhere null is a failure', () => {
      expect(answer(good)).toEqual([]);
      expect(answer({ ...good, nickname: null })).toEqual([]);
      expect(answer({ ...good, title: null }).join('\n')).toMatch(/title/);
    });

    it('formats in a response: a day the calendar has, a date-time with its offset, a uuid, an email', () => {
      expect(answer({ ...good, day: '2021-02-29' }).join('\n')).toMatch(/day/);
      expect(answer({ ...good, day: '2021-02-28', at: '2021-02-28T10:00:00-03:00' })).toEqual([]);
      expect(answer({ ...good, at: '2021-02-28T10:00:00' }).join('\n')).toMatch(/at/);
      expect(answer({ ...good, at: '2021-02-28T10:00:00+24:00' }).join('\n')).toMatch(/at/);
      expect(answer({ ...good, id: 'not-a-uuid' }).join('\n')).toMatch(/id/);
      expect(answer({ ...good, email: 'no-at-sign' }).join('\n')).toMatch(/email/);
    });

    it('formats in a request: valid bodies keep to them; bad-format cases break each, 2021-02-29 among them', () => {
      for (const body of fc.sample(validBodies(addNote!)!, { numRuns: 100, seed: 3 }))
        expect(answer((body as { value: unknown }).value), JSON.stringify(body)).toEqual([]);
      const broken = fc
        .sample(negativeCases(api, addNote!, 'bad format', NO_CREDENTIALS)!, { numRuns: 300, seed: 4 })
        .map(({ request }) => JSON.parse(request.body!.toString('utf8')) as Record<string, unknown>);
      for (const field of ['day', 'at', 'id', 'email'])
        expect(
          broken.some((body) => answer(body).some((violation) => violation.includes(field))),
          field,
        ).toBe(true);
      expect(broken.some(({ day }) => day === '2021-02-29')).toBe(true);
      // The coverage phase tries null where it is allowed, as a valid request.
      const coverage = coverageCases(api, addNote!, NO_CREDENTIALS);
      expect(coverage.every(({ bodyValue, valid }) => valid === (answer(bodyValue).length === 0))).toBe(true);
    });
  });
}
