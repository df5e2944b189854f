import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedMethods,
  disallowedMethods,
  invalidCredentials,
  unknownPathCases,
  withoutValidCredentials,
  wrongMethodCases,
} from '../src/request-variants.js';
import { readApiModel } from '../src/spec-model.js';
import { petStoreDocument } from './support/pet-store.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;

describe('request variants', () => {
  it('allow HEAD wherever GET is, and try the other methods', () => {
    expect(allowedMethods(api, '/pets')).toEqual(['GET', 'POST', 'HEAD']);
    expect(disallowedMethods(api, '/pets')).toEqual(['PUT', 'PATCH', 'DELETE', 'TRACE']);
    expect(disallowedMethods(api, '/pets/{petId}')).toEqual(['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE']);
    const cases = fc.sample(wrongMethodCases(api, '/pets/{petId}')!, { numRuns: 50, seed: 1 });
    expect(new Set(cases.map(({ request }) => request.method))).toEqual(new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE']));
    expect(cases.every(({ request }) => /^\/v1\/pets\/\d+$/.test(request.target))).toBe(true);
  });

  it('make paths the spec does not have from valid ones', () => {
    const targets = fc
      .sample(unknownPathCases(api, operation('getPet')), { numRuns: 200, seed: 2 })
      .map(({ request }) => request.target.split('?')[0]!);
    expect(targets.some((target) => /^\/v1\/pets\/\d+\/$/.test(target))).toBe(true);
    expect(targets.some((target) => target.startsWith('/V1/'))).toBe(true);
    expect(targets.some((target) => target.startsWith('/v1/Pets/') || target.startsWith('/v1/pEts/'))).toBe(true);
    expect(targets.some((target) => target.startsWith('/v1//pets/'))).toBe(true);
    expect(targets.some((target) => /^\/v1\/pets\/\d+\/x$/.test(target))).toBe(true);
    const kept = fc.sample(unknownPathCases(api, operation('getPet'), true), { numRuns: 200, seed: 2 });
    expect(kept.every(({ request }) => request.target.startsWith('/v1/'))).toBe(true);
  });

  it('never turn one path of the spec into another', () => {
    // /pets with a segment more would be /pets/x, not a path of the spec; /pets/{petId} itself is.
    const targets = fc
      .sample(unknownPathCases(api, operation('listPets')), { numRuns: 300, seed: 3 })
      .map(({ request }) => request.target.split('?')[0]!);
    expect(targets).not.toContain('/v1/pets');
  });

  it('send no credentials, unknown keys or other schemes', () => {
    const variants = fc.sample(invalidCredentials([{ type: 'bearer' }]), { numRuns: 200, seed: 4 });
    const values = variants.map(({ credentials }) => (credentials.kind === 'headers' ? credentials.headers[0]!.value : credentials.kind));
    expect(values).toContain('none');
    expect(values.some((value) => /^Bearer psk_[A-Za-z0-9_-]{43}$/.test(value))).toBe(true);
    expect(values).toContain('Basic dXNlcjpwYXNzd29yZA==');
    const keyed = fc.sample(invalidCredentials([{ type: 'apiKey', in: 'header', name: 'X-Key' }]), { numRuns: 50, seed: 4 });
    expect(keyed.some(({ credentials }) => credentials.kind === 'headers' && credentials.headers[0]!.name === 'X-Key')).toBe(true);
  });

  it('take any request of the operation without valid credentials', () => {
    const cases = fc.sample(withoutValidCredentials(operation('getPet'), unknownPathCases(api, operation('getPet'), true)), {
      numRuns: 20,
      seed: 5,
    });
    for (const { request, why } of cases) {
      expect(request.credentials.kind).not.toBe('key');
      expect(why).toMatch(/; the request otherwise: .* is not a path of the spec/);
    }
  });
});
