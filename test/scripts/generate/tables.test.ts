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
    [
      { label: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      "ThingPatch.label: a merge patch's property is one schema, or one and null",
    ],
  ])('refuses a merge patch it cannot apply, saying where: %j', (properties, message) => {
    const patch = () => columnsOf(withPatch({ type: 'object', properties }), { ...persisted, patched: 'ThingPatch' });
    expect(patch).toThrow(message);
    expect(patch).toThrow('scripts/generate/tables.ts');
  });

  it.each([
    [{ flag: { type: 'boolean' } }, [], 'Thing.flag has type "boolean": a column holds one of string, integer, number'],
    [{ tags: { type: 'array', items: { type: 'string' } } }, [], 'Thing.tags has type "array"'],
    [{ note: { type: ['string', 'null'] } }, [], 'Thing.note may be null, which storage uses for an absent property'],
    [{ label: { type: 'string' } }, ['label'], 'Thing.label is required but NewThing.label is optional'],
    [{ weight_kg: { type: 'number' } }, [], 'Thing.weight_kg and Thing.weightKg would share column weight_kg'],
    [{ weightKg: { type: 'integer' } }, [], 'Thing.weightKg and NewThing.weightKg differ in type'],
  ])('refuses a property it cannot keep, saying where storage learns more: %j', (properties, required, message) => {
    const thing = { type: 'object', required, properties };
    const written = { type: 'object', properties: { label: { type: 'string' }, weightKg: { type: 'number' } } };
    expect(() => columnsOf(document(thing, written), persisted)).toThrow(message);
    expect(() => columnsOf(document(thing, written), persisted)).toThrow('scripts/generate/tables.ts');
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
