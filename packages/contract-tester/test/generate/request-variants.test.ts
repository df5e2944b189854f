import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedMethods,
  disallowedMethods,
  invalidCredentials,
  unknownPathCases,
  withoutValidCredentials,
  wrongMethodCases,
} from '../../src/generate/request-variants.js';
import { NO_CREDENTIALS } from '../../src/generate/requests.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { petStoreDocument } from '../support/pet-store.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';

const api = readApiModel(petStoreDocument());
const gallery = readApiModel(parseSpec(readFileSync(GALLERY_SPEC, 'utf8')));
const board = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
const operation = (id: string, model = api) => model.operations.find((candidate) => candidate.id === id)!;

describe('request variants', () => {
  it('know the methods of a path (HEAD wherever GET is, when asked), and try the others', () => {
    expect(allowedMethods(gallery, '/exhibitions')).toEqual(['GET', 'POST']);
    expect(allowedMethods(gallery, '/exhibitions', true)).toEqual(['GET', 'POST', 'HEAD']);
    expect(disallowedMethods(gallery, '/exhibitions')).toEqual(['PUT', 'PATCH', 'DELETE', 'TRACE']);
    expect(disallowedMethods(gallery, '/exhibitions/{exhibitionId}')).toEqual(['POST', 'PUT', 'TRACE']);
    const cases = fc.sample(
      wrongMethodCases(gallery, '/exhibitions/{exhibitionId}', () => NO_CREDENTIALS)!,
      { numRuns: 50, seed: 1 },
    );
    expect(new Set(cases.map(({ request }) => request.method))).toEqual(new Set(['POST', 'PUT', 'TRACE']));
    expect(cases.every(({ request }) => /^\/api\/exhibitions\/[0-9a-f-]{36}$/.test(request.target))).toBe(true);
    expect(cases.filter(({ request }) => request.method === 'TRACE').every(({ request }) => request.body === undefined)).toBe(true);
  });

  it('make paths the spec does not have from valid ones', () => {
    const targets = fc
      .sample(unknownPathCases(api, operation('getPet'), NO_CREDENTIALS), { numRuns: 200, seed: 2 })
      .map(({ request }) => request.target.split('?')[0]!);
    expect(targets.some((target) => /^\/v1\/pets\/\d+\/$/.test(target))).toBe(true);
    expect(targets.some((target) => target.startsWith('/V1/'))).toBe(true);
    expect(targets.some((target) => target.startsWith('/v1/Pets/') || target.startsWith('/v1/pEts/'))).toBe(true);
    expect(targets.some((target) => target.startsWith('/v1//pets/'))).toBe(true);
    expect(targets.some((target) => /^\/v1\/pets\/\d+\/x$/.test(target))).toBe(true);
    const kept = fc.sample(unknownPathCases(api, operation('getPet'), NO_CREDENTIALS, true), { numRuns: 200, seed: 2 });
    expect(kept.every(({ request }) => request.target.startsWith('/v1/'))).toBe(true);
  });

  it('never turn one path of the spec into another', () => {
    // /pets with a segment more would be /pets/x, not a path of the spec; /pets/{petId} itself is.
    const targets = fc
      .sample(unknownPathCases(api, operation('listPets'), NO_CREDENTIALS), { numRuns: 300, seed: 3 })
      .map(({ request }) => request.target.split('?')[0]!);
    expect(targets).not.toContain('/v1/pets');
  });

  it('send no credentials, or forged ones for every scheme of one alternative, nothing else', () => {
    const values = fc
      .sample(invalidCredentials(operation('getGame', board).security.alternatives), { numRuns: 300, seed: 4 })
      .map(({ credentials }) =>
        credentials.kind === 'forged'
          ? [...credentials.headers.map(({ name, value }) => `${name}: ${value}`), ...credentials.query.map(([name]) => `?${name}`)].join(
              ' + ',
            )
          : credentials.kind,
      );
    expect(values).toContain('none');
    expect(values.some((value) => /^X-API-Key: [A-Za-z0-9_-]{43}$/.test(value))).toBe(true);
    expect(values.some((value) => /^Authorization: Bearer [A-Za-z0-9_-]{43}$/.test(value))).toBe(true);
    expect(values.every((value) => value === 'none' || !value.includes(' + '))).toBe(true);
    // Two OAuth2 schemes required together (Google's documents): one forged Authorization, not two.
    const oauth = { type: 'oauth2' } as const;
    const together = fc.sample(
      invalidCredentials([
        [
          { name: 'Oauth2', scheme: oauth },
          { name: 'Oauth2c', scheme: oauth },
        ],
      ]),
      { numRuns: 20, seed: 4 },
    );
    for (const { credentials } of together)
      if (credentials.kind === 'forged') expect(credentials.headers.filter(({ name }) => name === 'Authorization')).toHaveLength(1);
    const basic = fc.sample(invalidCredentials([[{ name: 'b', scheme: { type: 'http', scheme: 'basic' } }]]), { numRuns: 20, seed: 4 });
    expect(
      basic.some(({ credentials }) => credentials.kind === 'forged' && /^Basic [A-Za-z0-9+/=]+$/.test(credentials.headers[0]!.value)),
    ).toBe(true);
    const cookie = fc.sample(invalidCredentials([[{ name: 'c', scheme: { type: 'apiKey', in: 'query', name: 'key' } }]]), {
      numRuns: 20,
      seed: 4,
    });
    expect(cookie.some(({ credentials }) => credentials.kind === 'forged' && credentials.query[0]![0] === 'key')).toBe(true);
  });

  it("forge tokens as the API's own, and malformed ones, when asked", () => {
    const variants = fc.sample(invalidCredentials(operation('getPet').security.alternatives, { tokenPrefix: 'psk_', malformed: true }), {
      numRuns: 300,
      seed: 4,
    });
    const values = variants.map(({ credentials }) => (credentials.kind === 'forged' ? credentials.headers[0]!.value : credentials.kind));
    expect(values.some((value) => /^Bearer psk_[A-Za-z0-9_-]{43}$/.test(value))).toBe(true);
    expect(values).toContain('Basic dXNlcjpwYXNzd29yZA==');
  });

  it('take any request of the operation without valid credentials', () => {
    const cases = fc.sample(
      withoutValidCredentials(operation('getPet'), unknownPathCases(api, operation('getPet'), NO_CREDENTIALS, true)),
      { numRuns: 20, seed: 5 },
    );
    for (const { request, why } of cases) {
      expect(request.credentials.kind).not.toBe('valid');
      expect(why).toMatch(/; the request otherwise: .* is not a path of the spec/);
    }
  });
});
