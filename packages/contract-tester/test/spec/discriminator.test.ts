import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverageCases } from '../../src/generate/coverage.js';
import { negativeCases } from '../../src/generate/negative-requests.js';
import { NO_CREDENTIALS } from '../../src/generate/requests.js';
import { isValid } from '../../src/generate/schema-validator.js';
import { validValue } from '../../src/generate/valid-values.js';
import { discriminatorValues } from '../../src/spec/discriminator.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { minimalSpec, postOf } from '../support/semantics/minimal.js';
import { petsSpec } from '../support/semantics/pets.js';

type Pet = { petType: string; name?: string; purrs?: boolean; barks?: boolean };

describe('the discriminator: the values that name a schema', () => {
  it('are the mapping keys that point at it (by reference or by name), else its own name', () => {
    const mapping = { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat', kitty: 'Cat', dog: 'Dog' } };
    expect(discriminatorValues(mapping, '#/components/schemas/Cat')).toEqual(['cat', 'kitty']);
    expect(discriminatorValues(mapping, '#/components/schemas/Dog')).toEqual(['dog']);
    expect(discriminatorValues({ propertyName: 'petType' }, '#/components/schemas/Dog')).toEqual(['Dog']);
    expect(discriminatorValues(mapping, '#/components/schemas/Bird')).toEqual(['Bird']);
  });
});

for (const version of ['3.0.3', '3.1.0'] as const) {
  describe(`a discriminated body (${version})`, () => {
    const api = readApiModel(parseSpec(JSON.stringify(petsSpec(version))));
    const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;
    const schemaOf = (id: string) => operation(id).body!.media[0]!.schema;
    const names = { addPet: { cat: 'Cat', dog: 'Dog' }, addMappedPet: { cat: 'cat', dog: 'dog' } };

    for (const [id, { cat, dog }] of Object.entries(names)) {
      it(`${id}: valid bodies name the branch they are (${cat}, ${dog})`, () => {
        const pets = fc.sample(validValue(schemaOf(id)), { numRuns: 200, seed: 3 }) as Pet[];
        for (const pet of pets) {
          expect([cat, dog]).toContain(pet.petType);
          if (pet.purrs !== undefined) expect(pet.petType).toBe(cat);
          if (pet.barks !== undefined) expect(pet.petType).toBe(dog);
          expect(isValid(schemaOf(id), pet)).toBe(true);
        }
        expect(new Set(pets.map(({ petType }) => petType))).toEqual(new Set([cat, dog]));
      });

      it(`${id}: invalid cases include a cat named a dog, and a name no branch has`, () => {
        const cases = fc.sample(negativeCases(api, operation(id), 'bad enum value', NO_CREDENTIALS)!, { numRuns: 200, seed: 4 });
        const bodies = cases.map(({ request }) => JSON.parse(request.body!.toString('utf8')) as Pet);
        for (const body of bodies) expect(isValid(schemaOf(id), body), JSON.stringify(body)).toBe(false);
        expect(bodies.some((body) => body.petType === dog)).toBe(true);
        expect(bodies.some((body) => body.petType !== cat && body.petType !== dog)).toBe(true);
        const coverage = coverageCases(api, operation(id), NO_CREDENTIALS).filter(({ why }) => why.includes('of another schema'));
        expect(coverage.length).toBeGreaterThan(0);
        expect(coverage.every(({ valid }) => !valid)).toBe(true);
      });
    }

    it('addKitten (allOf: [Animal, …], Animal mapping kitten to it): bodies are kittens, a puppy is refused', () => {
      const kittens = fc.sample(validValue(schemaOf('addKitten')), { numRuns: 50, seed: 5 }) as Pet[];
      expect(new Set(kittens.map(({ petType }) => petType))).toEqual(new Set(['kitten']));
      expect(isValid(schemaOf('addKitten'), { petType: 'puppy' })).toBe(false);
      const cases = fc.sample(negativeCases(api, operation('addKitten'), 'bad enum value', NO_CREDENTIALS)!, { numRuns: 100, seed: 6 });
      expect(cases.some(({ request }) => (JSON.parse(request.body!.toString('utf8')) as Pet).petType === 'puppy')).toBe(true);
    });
  });
}

describe('a discriminator whose property a branch does not require (OpenAPI 3.1.1: its absence means nothing defined)', () => {
  const api = readApiModel(
    minimalSpec(
      { '/animals': postOf('addAnimal', 'Animal') },
      {
        schemas: {
          Animal: {
            oneOf: [{ $ref: '#/components/schemas/Bird' }, { $ref: '#/components/schemas/Fish' }],
            discriminator: { propertyName: 'kind', mapping: { bird: '#/components/schemas/Bird' } },
          },
          Bird: { type: 'object', required: ['wings'], properties: { kind: { type: 'string' }, wings: { type: 'integer' } } },
          Fish: { type: 'object', required: ['fins'], properties: { kind: { type: 'string' }, fins: { type: 'integer' } } },
        },
      },
    ),
  );
  const operation = api.operations[0]!;
  const schema = operation.body!.media[0]!.schema;

  it('makes every body with the property, by the mapping or the implicit name', () => {
    const animals = fc.sample(validValue(schema), { numRuns: 200, seed: 9 }) as Array<{ kind?: string; wings?: number; fins?: number }>;
    for (const animal of animals) {
      expect(animal.kind, JSON.stringify(animal)).toBe(animal.wings !== undefined ? 'bird' : 'Fish');
      expect(isValid(schema, animal)).toBe(true);
    }
    expect(new Set(animals.map(({ kind }) => kind))).toEqual(new Set(['bird', 'Fish']));
  });

  it('never sends a body without it, as a refusal the server owes or otherwise', () => {
    const coverage = coverageCases(api, operation, NO_CREDENTIALS);
    expect(coverage.length).toBeGreaterThan(0);
    expect(coverage.filter(({ why }) => /\bkind\b.*left out/.test(why)).map(({ why }) => why)).toEqual([]);
    const missing = fc.sample(negativeCases(api, operation, 'missing required', NO_CREDENTIALS)!, { numRuns: 100, seed: 10 });
    const bodies = missing.flatMap(({ request }) => (request.body ? [JSON.parse(request.body.toString('utf8')) as object] : []));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).toHaveProperty('kind');
  });

  it('still sends a body without it where the branch requires it (Cat)', () => {
    const pets = readApiModel(parseSpec(JSON.stringify(petsSpec('3.1.0'))));
    const addPet = pets.operations.find(({ id }) => id === 'addPet')!;
    expect(coverageCases(pets, addPet, NO_CREDENTIALS).some(({ why }) => /^body\.petType .*left out \(it is required\)$/.test(why))).toBe(
      true,
    );
  });
});
