import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PET_TABLE, type PetRow } from '../../../generated/tables.js';
import { parseSpec, readSpecText, resolveRefAt } from '../../../src/contract/spec.js';
import { NEW_PET_COLUMN_LIST, newPetValues, PET_COLUMN, PET_COLUMN_LIST, petFromRow } from '../../../src/storage/pets/pet-table.js';
import { POSTGRES_SCHEMA } from '../../../src/storage/postgres/migrate.js';
import { SQLITE_SCHEMA } from '../../../src/storage/sqlite/migrate.js';
import type { NewPet } from '../../../src/storage/pets/pets.js';

const document = parseSpec(readSpecText());
const schemas = document.components.schemas;
const propertiesOf = (name: string) => Object.keys(schemas[name]!['properties'] as object);

/**
 * A `schema` (Pet or NewPet) with every property, each its schema's first example, and the same
 * with its required properties alone: the rows and values below follow whatever fields the spec has.
 */
function instancesOf(schema: string): { full: Record<string, unknown>; minimal: Record<string, unknown> } {
  const { properties, required } = schemas[schema] as { properties: Record<string, object>; required: string[] };
  const full = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      (resolveRefAt(document, property).value as { examples: unknown[] }).examples[0],
    ]),
  );
  return { full, minimal: Object.fromEntries(Object.entries(full).filter(([name]) => required.includes(name))) };
}

const pet = instancesOf(PET_TABLE.read);
const newPet = instancesOf(PET_TABLE.written);
const optional = (instances: typeof pet) => Object.keys(instances.full).filter((name) => !(name in instances.minimal));

/** Pet's columns in order, each with the pet's property or null, as a store reads them. */
const rowOf = (value: Record<string, unknown>) =>
  PET_TABLE.columns.filter((column) => column.read).map(({ property }) => value[property] ?? null) as unknown as PetRow;

describe('the pets table, as both backends use it', () => {
  it('has a column for each property of Pet and of NewPet, from the spec', () => {
    expect(PET_TABLE.columns.map((column) => column.property)).toEqual([
      ...new Set([...propertiesOf(PET_TABLE.read), ...propertiesOf(PET_TABLE.written)]),
    ]);
    expect(PET_TABLE.columns.filter((column) => column.read).map((column) => column.property)).toEqual(propertiesOf(PET_TABLE.read));
    expect(PET_TABLE.columns.filter((column) => column.written).map((column) => column.property)).toEqual(propertiesOf(PET_TABLE.written));
    expect(PET_COLUMN_LIST.split(', ')).toHaveLength(propertiesOf(PET_TABLE.read).length);
    expect(NEW_PET_COLUMN_LIST.split(', ')).toHaveLength(propertiesOf(PET_TABLE.written).length);
    expect(PET_COLUMN.categoryId).toBe('"category_id"');
  });

  it('turns a pet row into a Pet, leaving a missing optional property absent rather than null', () => {
    expect(optional(pet)).not.toEqual([]);
    expect(petFromRow(rowOf(pet.full))).toEqual(pet.full);
    const read = petFromRow(rowOf(pet.minimal));
    expect(read).toEqual(pet.minimal);
    expect(optional(pet).filter((name) => name in read)).toEqual([]);
  });

  it('turns a NewPet into the values a create inserts, an absent optional property as null', () => {
    const written = PET_TABLE.columns.filter((column) => column.written).map(({ property }) => property);
    expect(newPetValues(newPet.full as NewPet)).toEqual(written.map((name) => newPet.full[name]));
    expect(newPetValues(newPet.minimal as NewPet)).toEqual(written.map((name) => newPet.minimal[name] ?? null));
  });

  it('names migration files and a page that exist', () => {
    for (const { migrations } of [SQLITE_SCHEMA, POSTGRES_SCHEMA]) expect(existsSync(migrations), migrations).toBe(true);
    expect(existsSync('docs/adding-a-field.md')).toBe(true);
  });
});
