import { describe, expect, it } from 'vitest';
import { operationName, operationPath } from '../../src/handlers/links.js';

describe('operation links', () => {
  it('fill the spec path template of an operation below the base path', () => {
    expect(operationPath('/v1', 'listPets')).toBe('/v1/pets');
    expect(operationPath('/v1', 'getPet', { petId: 42 })).toBe('/v1/pets/42');
  });

  it('name an operation by its method and path', () => {
    expect(operationName('/v1', 'getPet')).toBe('GET /v1/pets/{petId}');
    expect(operationName('/v1', 'createPet')).toBe('POST /v1/pets');
  });
});
