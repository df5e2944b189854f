import { describe, expect, it } from 'vitest';
import type { OpenApiDocument, SchemaObject } from '../../../src/contract/spec.js';
import { columnName, columnsOf, persistedSchemas, tablesModule } from '../../../scripts/generate/tables.js';
import { parseSpec, readSpecText } from '../../../src/contract/spec.js';

const persisted = { table: 'things', read: 'Thing', written: 'NewThing', key: 'label' };

function document(thing: SchemaObject, newThing: SchemaObject): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { Thing: thing, NewThing: newThing, Label: { type: 'string', maxLength: 10 } } },
  };
}

const newThing = {
  type: 'object',
  required: ['label'],
  properties: { label: { $ref: '#/components/schemas/Label' }, weightKg: { type: 'number' }, secret: { type: 'string' } },
};

describe('the tables storage keeps (scripts/generate/tables.ts)', () => {
  it.each([
    ['id', 'id'],
    ['categoryId', 'category_id'],
    ['weightKg', 'weight_kg'],
    ['petURL', 'pet_url'],
    ['HTTPCode', 'http_code'],
    ['v2Name', 'v2_name'],
  ])('names the column of %s %s', (property, column) => {
    expect(columnName(property)).toBe(column);
  });

  it('gives a versioned table a version column of its own after the properties: no property, NOT NULL DEFAULT 1', () => {
    const thing = { type: 'object', required: ['label'], properties: { label: { type: 'string' } } };
    const columns = columnsOf(document(thing, newThing), { ...persisted, versioned: true });
    expect(columns.map(({ column }) => column)).toEqual(['label', 'weight_kg', 'secret', 'version']);
    // Neither read as a property nor written by a create: NOT NULL with DEFAULT 1 in the migration.
    expect(columns.at(-1)).toMatchObject({ read: false, written: false, patched: false, readRequired: true, defaultValue: 1 });
    const clashing = { ...thing, properties: { ...thing.properties, version: { type: 'integer' } } };
    expect(() => columnsOf(document(clashing, newThing), { ...persisted, versioned: true })).toThrow(
      "Thing.version would share column version, where a versioned table keeps each row's version",
    );
  });

  it('makes a column of each property, the read schema’s first (allOf included), then those only the written one has', () => {
    const thing = {
      allOf: [{ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }],
      type: 'object',
      required: ['label'],
      properties: { label: { $ref: '#/components/schemas/Label' }, weightKg: { type: 'number' } },
    };
    expect(columnsOf(document(thing, newThing), persisted)).toEqual([
      {
        property: 'id',
        column: 'id',
        type: 'integer',
        read: true,
        written: false,
        patched: false,
        readRequired: true,
        writtenRequired: false,
        nullable: false,
      },
      {
        property: 'label',
        column: 'label',
        type: 'string',
        read: true,
        written: true,
        patched: false,
        readRequired: true,
        writtenRequired: true,
        nullable: false,
      },
      {
        property: 'weightKg',
        column: 'weight_kg',
        type: 'number',
        read: true,
        written: true,
        patched: false,
        readRequired: false,
        writtenRequired: false,
        nullable: false,
      },
      {
        property: 'secret',
        column: 'secret',
        type: 'string',
        read: false,
        written: true,
        patched: false,
        readRequired: false,
        writtenRequired: false,
        nullable: false,
      },
    ]);
  });

  const thing = { type: 'object', required: ['label'], properties: { label: { type: 'string' }, weightKg: { type: 'number' } } };
  const withPatch = (patch: SchemaObject) => {
    const spec = document(thing, newThing);
    spec.components.schemas['ThingPatch'] = patch;
    return spec;
  };

  it('marks the columns a merge patch may set, null (which removes the property) written either way', () => {
    for (const nullable of [
      { type: ['number', 'null'] },
      { anyOf: [{ type: 'number' }, { type: 'null' }] },
      { oneOf: [{ type: 'number' }] },
    ]) {
      const patch = { type: 'object', properties: { weightKg: nullable, label: { $ref: '#/components/schemas/Label' } } };
      const columns = columnsOf(withPatch(patch), { ...persisted, patched: 'ThingPatch' });
      expect(columns.filter((column) => column.patched).map(({ property }) => property)).toEqual(['label', 'weightKg']);
    }
  });

  it.each([
    [{ colour: { type: 'string' } }, 'ThingPatch.colour is no property of Thing: an update can only change what a read returns'],
    [{ weightKg: { type: 'integer' } }, 'ThingPatch.weightKg and Thing.weightKg differ in type'],
    [{ label: { type: ['string', 'null'] } }, 'ThingPatch.label may be null, which would remove Thing.label, a required property'],
    [{ label: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, 'ThingPatch.label and Thing.label differ in type'],
  ])('refuses a merge patch it cannot apply, saying where: %j', (properties, message) => {
    const patch = () => columnsOf(withPatch({ type: 'object', properties }), { ...persisted, patched: 'ThingPatch' });
    expect(patch).toThrow(message);
    expect(patch).toThrow('scripts/generate/tables.ts');
  });

  it.each([
    [{ photo: { type: 'string', format: 'binary' } }, [], 'Thing.photo is binary content, which a JSON body does not carry'],
    [{ label: { type: 'string' } }, ['label'], 'Thing.label is required but NewThing.label is optional'],
    [{ weight_kg: { type: 'number' } }, [], 'Thing.weight_kg and Thing.weightKg would share column weight_kg'],
    [{ weightKg: { type: 'integer' } }, [], 'Thing.weightKg (integer) and NewThing.weightKg (number) differ in type'],
    [{ label: { type: 'boolean' } }, [], 'Thing.label (boolean) and NewThing.label (string) differ in type'],
  ])('refuses a property it cannot keep, saying where storage learns more: %j', (properties, required, message) => {
    const thing = { type: 'object', required, properties };
    const written = { type: 'object', properties: { label: { type: 'string' }, weightKg: { type: 'number' } } };
    expect(() => columnsOf(document(thing, written), persisted)).toThrow(message);
    expect(() => columnsOf(document(thing, written), persisted)).toThrow('scripts/generate/tables.ts');
  });

  const Address = { type: 'object', properties: { city: { type: 'string' } } };
  it.each([
    ['a boolean', { type: 'boolean' }, 'boolean', false],
    ['an int64', { type: 'integer', format: 'int64' }, 'integer', false],
    ['a number', { type: 'number', format: 'double' }, 'number', false],
    ['a date', { type: 'string', format: 'date' }, 'string', false],
    ['a date-time', { type: 'string', format: 'date-time' }, 'string', false],
    ['a uuid', { type: 'string', format: 'uuid' }, 'string', false],
    ['a string enum without a type', { enum: ['a', 'b'] }, 'string', false],
    ['an integer enum', { type: 'integer', enum: [1, 2] }, 'integer', false],
    ['a const', { const: true }, 'boolean', false],
    ['an enum of mixed types', { enum: ['a', 1] }, 'json', false],
    ['a 3.1 nullable string', { type: ['string', 'null'] }, 'string', true],
    ['a 3.0 nullable integer', { type: 'integer', nullable: true }, 'integer', true],
    ['an anyOf with null', { anyOf: [{ type: 'boolean' }, { type: 'null' }] }, 'boolean', true],
    ['a nullable enum', { type: ['string', 'null'], enum: ['a', null] }, 'string', true],
    ['an allOf of one $ref', { allOf: [{ $ref: '#/components/schemas/Label' }] }, 'string', false],
    ['a nested object', { $ref: '#/components/schemas/Address' }, 'json', false],
    ['a nullable nested object (3.0)', { allOf: [{ $ref: '#/components/schemas/Address' }], nullable: true }, 'json', true],
    [
      'a nullable $ref (3.0) with its type',
      { allOf: [{ $ref: '#/components/schemas/Label' }], type: 'string', nullable: true },
      'string',
      true,
    ],
    ['an array of strings', { type: 'array', items: { type: 'string' } }, 'json', false],
    ['an array of objects', { type: 'array', items: { $ref: '#/components/schemas/Address' } }, 'json', false],
    ['a oneOf of shapes', { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Address' }] }, 'json', false],
    ['a schema of any value', {}, 'json', false],
  ])('keeps %s in a %s column', (_shape, schema, type, nullable) => {
    const thing = { type: 'object', required: ['label'], properties: { label: { type: 'string' }, value: schema } };
    const spec = document(thing, { type: 'object', required: ['label'], properties: { label: { type: 'string' }, value: schema } });
    spec.components.schemas['Address'] = Address;
    const column = columnsOf(spec, persisted).find(({ property }) => property === 'value');
    expect(column).toMatchObject({ type, nullable, read: true, written: true });
  });

  it('lets a nullable required property be written without it (NULL), and allows NULL in its column', () => {
    const value = { type: ['boolean', 'null'] };
    const thing = { type: 'object', required: ['label', 'value'], properties: { label: { type: 'string' }, value } };
    const written = { type: 'object', required: ['label'], properties: { label: { type: 'string' }, value } };
    expect(columnsOf(document(thing, written), persisted).find(({ property }) => property === 'value')).toMatchObject({
      readRequired: true,
      writtenRequired: false,
      nullable: true,
    });
  });

  it.each([
    ['an integer no create writes', { type: 'integer' }, false, 'identity'],
    ['a readOnly integer, in the written schema too', { type: 'integer', readOnly: true }, true, 'identity'],
    ['a uuid no create writes', { type: 'string', format: 'uuid', readOnly: true }, true, 'uuid'],
    ['a plain string no create writes', { type: 'string' }, false, 'uuid'],
    ['a number no create writes', { type: 'number' }, false, 'identity'],
    ['a string the client sends', { type: 'string' }, true, undefined],
  ])('makes the key of %s', (_key, id, inWritten, generatedKey) => {
    const thing = { type: 'object', properties: { id, label: { type: 'string' } } };
    const written = { type: 'object', properties: { label: { type: 'string' }, ...(inWritten && { id }) } };
    const key = columnsOf(document(thing, written), { ...persisted, key: 'id' })[0]!;
    // A key is never null, required by the schema or not.
    expect(key).toMatchObject({ property: 'id', readRequired: true, nullable: false, written: generatedKey === undefined });
    expect(key.generatedKey).toBe(generatedKey);
  });

  it.each([
    [
      { type: 'string', pattern: '^[a-z]+$' },
      'Thing.id, the key of table things, is a string no create writes, whose format, length or pattern refuses a UUID',
    ],
    [{ type: 'string', maxLength: 12 }, 'whose format, length or pattern refuses a UUID'],
    [{ type: 'boolean' }, 'Thing.id, the key of table things, is a boolean: a key is an integer or a string'],
  ])('refuses a key the server cannot make: %j', (id, message) => {
    const thing = { type: 'object', properties: { id, label: { type: 'string' } } };
    expect(() => columnsOf(document(thing, newThing), { ...persisted, key: 'id' })).toThrow(message);
  });

  it('refuses a schema whose properties are not fixed', () => {
    const thing = { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'string' } };
    expect(() => columnsOf(document(thing, newThing), persisted)).toThrow('Thing: storage keeps the fixed properties of an object schema');
  });

  it('describes each persisted schema of openapi.yaml in a module of its own names', () => {
    const spec = parseSpec(readSpecText());
    const module = tablesModule(spec, '// header\n');
    const lowerFirst = (name: string) => `${name[0]!.toLowerCase()}${name.slice(1)}`;
    for (const { read, written, patched } of persistedSchemas(spec)) {
      expect(module).toContain(`export type ${read}Row = [`);
      if (written) expect(module).toContain(`export function ${lowerFirst(written)}Values(`);
      if (patched) expect(module).toContain(`export function ${lowerFirst(patched)}Values(`);
    }
    expect(module.startsWith('// header\n')).toBe(true);
  });
});
