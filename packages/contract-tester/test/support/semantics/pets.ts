import type { OpenApiDocument } from '../../../src/spec/openapi.js';

/**
 * A pet is a cat or a dog, told apart by its `petType` (OpenAPI's discriminator): by the schema's
 * name (`Pet`), by a mapping (`MappedPet`: `cat`, `dog`), and through allOf inheritance (`Kitten`
 * is `allOf: [Animal, …]`, Animal's discriminator mapping `kitten` to it). Each body is sent by an
 * operation of its own.
 */
export function petsSpec(version: '3.0.3' | '3.1.0'): OpenApiDocument {
  const body = (schema: string) => ({
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
    responses: { '201': { description: 'made' }, '400': { description: 'refused' } },
  });
  return {
    openapi: version,
    info: { title: 'pets', version: '1.0.0' },
    servers: [{ url: 'http://localhost/api' }],
    paths: {
      '/pets': { post: { operationId: 'addPet', ...body('Pet') } },
      '/mapped-pets': { post: { operationId: 'addMappedPet', ...body('MappedPet') } },
      '/kittens': { post: { operationId: 'addKitten', ...body('Kitten') } },
    },
    components: {
      schemas: {
        Pet: {
          oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
          discriminator: { propertyName: 'petType' },
        },
        MappedPet: {
          oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
          // One target as a reference, one as a schema's name: OpenAPI allows both.
          discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog' } },
        },
        Cat: {
          type: 'object',
          required: ['petType', 'name', 'purrs'],
          properties: { petType: { type: 'string' }, name: { type: 'string', maxLength: 10 }, purrs: { type: 'boolean' } },
        },
        Dog: {
          type: 'object',
          required: ['petType', 'name', 'barks'],
          properties: { petType: { type: 'string' }, name: { type: 'string', maxLength: 10 }, barks: { type: 'boolean' } },
        },
        Animal: {
          type: 'object',
          required: ['petType'],
          properties: { petType: { type: 'string' } },
          discriminator: {
            propertyName: 'petType',
            mapping: { kitten: '#/components/schemas/Kitten', puppy: '#/components/schemas/Puppy' },
          },
        },
        Kitten: { allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', properties: { age: { type: 'integer' } } }] },
        Puppy: { allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', properties: { weight: { type: 'number' } } }] },
      },
    },
  };
}
