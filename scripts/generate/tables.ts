// generated/tables.ts: the tables storage keeps schemas of openapi.yaml in, one column per property,
// so that both backends derive their column lists, row shapes and mappers from the spec instead of
// listing the fields by hand (docs/adding-a-field.md).
import { resolveRef, type OpenApiDocument, type SchemaObject } from '../../src/contract/spec.js';

/**
 * A table, the schema a read returns, the schema a create inserts (none: storage never creates one)
 * and the merge patch an update applies.
 */
export interface PersistedSchemas {
  table: string;
  read: string;
  written?: string;
  patched?: string;
  /** The read schema's property that identifies a row: the table's primary key. */
  key: string;
  /**
   * PostgreSQL indexes that INCLUDE every column a read selects (the key columns given), so that a
   * page comes from the index alone: a new read column rebuilds them (scripts/generate/migrations.ts).
   */
  coveringIndexes?: readonly { name: string; key: readonly string[] }[];
  /** Indexes on the table, each a list of the read schema's properties (`x-storage`'s `indexes`). */
  indexes?: readonly (readonly string[])[];
  /** Foreign keys: properties that name a row of another stored schema (`x-storage`'s `references`). */
  references?: readonly Reference[];
  /** The error code of an operation that names no row of the table (`x-storage`'s `notFound`): 404. */
  notFound?: string;
  /** The error code (409) of a create whose key, one the client sends, a row has (`x-storage`'s `conflict`). */
  conflict?: string;
  /** Each row has a version, raised by every update, for its ETag (`x-storage`'s `versioned`). */
  versioned?: boolean;
  /** The error code (412) of an update or delete whose If-Match lists none of the row's ETags (`x-storage`'s `preconditionFailed`). */
  preconditionFailed?: string;
  /**
   * The table has a store written by hand besides the generic one (`x-storage`'s `handWritten`), in
   * src/storage/<table>/sqlite.ts and postgres.ts: scripts/generate/hand-written-stores.ts lists it.
   */
  handWritten?: boolean;
}

/** The column a versioned table keeps each row's version in: no property of the schema. */
export const VERSION_COLUMN = 'version';

/** What a deleted row does to the rows that name it: they go with it, or they refuse its delete. */
const ON_DELETE = ['cascade', 'restrict'] as const;

/**
 * A property whose value is the key of a row of another stored schema: a FOREIGN KEY in both
 * backends, with an index, checked by the database in the transaction of the insert.
 */
export interface Reference {
  property: string;
  /** The stored schema whose key it names. */
  schema: string;
  onDelete: (typeof ON_DELETE)[number];
  /** The error code of a create whose row names no row there (the spec documents its status). */
  error: string;
  /**
   * With `onDelete: restrict`: the error code (409) of a delete of a row this property names, answered
   * by the generated delete of the schema it references.
   */
  restrictError?: string;
}

/**
 * `x-storage` on a component schema: storage keeps it in a table of its own, whose columns, rows,
 * mappers and migrations \`npm run generate\` derives from it (docs/adding-a-field.md).
 */
interface StorageMarker {
  table: string;
  key: string;
  indexes?: string[][];
  written?: string;
  patched?: string;
  notFound?: string;
  conflict?: string;
  references?: Reference[];
  versioned?: boolean;
  preconditionFailed?: string;
  handWritten?: boolean;
  /** Named indexes that INCLUDE every column a read selects, keyed by these properties (PostgreSQL). */
  coveringIndexes?: { name: string; key: string[] }[];
}

function checkReferences(where: string, references: unknown): asserts references is Reference[] | undefined {
  if (references === undefined) return;
  const valid = (reference: Partial<Reference>) =>
    typeof reference.property === 'string' &&
    typeof reference.schema === 'string' &&
    typeof reference.error === 'string' &&
    ON_DELETE.includes(reference.onDelete!) &&
    (reference.onDelete === 'restrict') === (typeof reference.restrictError === 'string');
  if (!Array.isArray(references) || !references.every(valid))
    throw new Error(
      `${where}.references is a list of { property, schema, onDelete: ${ON_DELETE.join(' | ')}, error: <ErrorCode> }, ` +
        `with restrictError: <ErrorCode> (409, the referenced row's delete refused) exactly when onDelete is restrict (${HERE})`,
    );
}

/** Every table storage keeps: one per schema marked `x-storage`, in the spec's order. */
export function persistedSchemas(document: OpenApiDocument): PersistedSchemas[] {
  const marked = Object.entries(document.components.schemas).flatMap(([name, schema]) => {
    const marker = schema['x-storage'] as StorageMarker | undefined;
    if (marker === undefined) return [];
    const where = `components.schemas.${name}.x-storage`;
    if (typeof marker !== 'object' || typeof marker.table !== 'string' || typeof marker.key !== 'string')
      throw new Error(`${where} needs \`table\` (the table's name) and \`key\` (the property that identifies a row) (${HERE})`);
    if (!/^[a-z][a-z0-9_]*$/.test(marker.table))
      throw new Error(`${where}.table ${JSON.stringify(marker.table)} is no plain table name (${HERE})`);
    if (
      marker.indexes !== undefined &&
      !(Array.isArray(marker.indexes) && marker.indexes.every((index) => Array.isArray(index) && index.length > 0))
    )
      throw new Error(`${where}.indexes is a list of indexes, each a list of ${name}'s properties (${HERE})`);
    checkReferences(where, marker.references);
    if (marker.versioned !== undefined && typeof marker.versioned !== 'boolean')
      throw new Error(`${where}.versioned is true when each row keeps a version for its ETag (${HERE})`);
    if (marker.handWritten !== undefined && typeof marker.handWritten !== 'boolean')
      throw new Error(`${where}.handWritten is true when the table has a store written by hand, in src/storage/${marker.table}/ (${HERE})`);
    // A foreign key's column is indexed, so that a delete of the row it names finds its rows at once.
    const referenceIndexes = (marker.references ?? [])
      .filter(({ property }) => !(marker.indexes ?? []).some(([first]) => first === property))
      .map(({ property }) => [property]);
    const indexes = [...(marker.indexes ?? []), ...referenceIndexes];
    return [
      {
        table: marker.table,
        read: name,
        key: marker.key,
        ...(marker.written && { written: marker.written }),
        ...(marker.patched && { patched: marker.patched }),
        ...(indexes.length > 0 && { indexes }),
        ...(marker.references && { references: marker.references }),
        ...(marker.notFound && { notFound: marker.notFound }),
        ...(marker.conflict && { conflict: marker.conflict }),
        ...(marker.versioned === true && { versioned: true }),
        ...(marker.preconditionFailed && { preconditionFailed: marker.preconditionFailed }),
        ...(marker.handWritten === true && { handWritten: true }),
        ...(marker.coveringIndexes && {
          coveringIndexes: marker.coveringIndexes.map(({ name: index, key }) => ({ name: index, key: key.map(columnName) })),
        }),
      },
    ];
  });
  const all = marked;
  const tables = new Set<string>();
  for (const { table, read } of all) {
    if (tables.has(table)) throw new Error(`${read}: table ${table} is kept for another schema already (${HERE})`);
    tables.add(table);
  }
  for (const { read, references = [] } of all) {
    for (const reference of references) {
      if (!all.some((other) => other.read === reference.schema))
        throw new Error(`${read}.${reference.property} references ${reference.schema}, which is not stored (no x-storage) (${HERE})`);
    }
  }
  return all;
}

/**
 * What a column holds, by the JSON Schema shape of its property: a string (whatever its format or
 * enum: kept as written), an integer (64 bits in both backends), a number, a boolean, or any other
 * JSON value (an object, an array, a choice of shapes) kept as JSON and returned as it came. Each
 * backend says how it stores each (src/storage/column-codec.ts converts where its driver does not).
 */
const COLUMN_TYPES = ['string', 'integer', 'number', 'boolean', 'json'] as const;
type ColumnType = (typeof COLUMN_TYPES)[number];

export interface Column {
  property: string;
  column: string;
  type: ColumnType;
  /** The read schema has the property: selected, and returned by an insert. */
  read: boolean;
  /** The written schema has it: a create inserts it. */
  written: boolean;
  /** The merge patch has it: an update sets it when the patch has it (null, where allowed, removes it). */
  patched: boolean;
  /** Required in the read schema (never null), resp. in the written one. */
  readRequired: boolean;
  writtenRequired: boolean;
  /**
   * The property may be null (3.1 `type: [T, 'null']`, `anyOf` with `{ type: 'null' }`, 3.0
   * `nullable: true`): its column allows NULL, which a required property reads back as null and an
   * optional one as absent.
   */
  nullable: boolean;
  /** The server makes the key of a new row (a key no create writes): an identity for an integer, a random UUID for a uuid. */
  generatedKey?: 'identity' | 'uuid';
  /** The schema's `default`, if it has one: what a migration gives the rows that exist (scripts/generate/migrations.ts). */
  defaultValue?: string | number | boolean;
}

interface Property {
  name: string;
  schema: SchemaObject;
  required: boolean;
}

const HERE = 'scripts/generate/tables.ts';

function withoutRef(schema: SchemaObject): SchemaObject {
  const { $ref: _ref, ...siblings } = schema as SchemaObject & { $ref?: string };
  return siblings;
}

/** The properties of an object schema, its allOf members' included, in order. */
function propertiesOf(document: OpenApiDocument, name: string, schema: SchemaObject): Property[] {
  const resolved = resolveRef(document, schema);
  const required = new Set((resolved['required'] as string[] | undefined) ?? []);
  const own = Object.entries((resolved['properties'] as Record<string, SchemaObject> | undefined) ?? {}).map(([property, value]) => ({
    name: property,
    // OpenAPI 3.1 lets a $ref have siblings (a default, readOnly): they count for the property.
    schema: { ...resolveRef(document, value), ...withoutRef(value) },
    required: required.has(property),
  }));
  const members = ((resolved['allOf'] as SchemaObject[] | undefined) ?? []).flatMap((member) => propertiesOf(document, name, member));
  for (const keyword of ['oneOf', 'anyOf', 'additionalProperties', 'patternProperties']) {
    const value = resolved[keyword];
    if (value !== undefined && value !== false)
      throw new Error(`${name}: storage keeps the fixed properties of an object schema, not ${keyword} (${HERE})`);
  }
  return [...members.map((member) => ({ ...member, required: member.required || required.has(member.name) })), ...own];
}

/** A property's column type, and whether it may be null. */
interface Shape {
  type: ColumnType;
  nullable: boolean;
}

const SCALARS: Record<string, ColumnType> = { string: 'string', integer: 'integer', number: 'number', boolean: 'boolean' };

/** The one JSON type all of an enum's (or const's) values have, else json. */
function typeOfValues(values: unknown[]): ColumnType {
  const types = new Set(
    values
      .filter((value) => value !== null)
      .map((value) => (typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value)),
  );
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  const [type] = types;
  return types.size === 1 && SCALARS[type!] ? SCALARS[type!]! : 'json';
}

/**
 * The column a property's schema needs. Any shape that is not one scalar type is kept as JSON, which
 * returns exactly what was written; only what a JSON body cannot carry as it is declared is refused.
 */
function shapeOf(document: OpenApiDocument, where: string, given: SchemaObject): Shape {
  const schema = { ...resolveRef(document, given), ...withoutRef(given) };
  const declared = schema['type'];
  const types = (Array.isArray(declared) ? declared : declared === undefined ? [] : [declared]) as string[];
  const values = (schema['enum'] as unknown[] | undefined) ?? ('const' in schema ? [schema['const']] : undefined);
  const alternatives = ((schema['anyOf'] ?? schema['oneOf']) as SchemaObject[] | undefined)?.map((member) => resolveRef(document, member));
  const isNull = (member: SchemaObject) => member['type'] === 'null' || (member['enum'] as unknown[] | undefined)?.every((v) => v === null);
  const nullable =
    schema['nullable'] === true || types.includes('null') || (values?.includes(null) ?? false) || (alternatives?.some(isNull) ?? false);
  if (schema['format'] === 'binary' || schema['contentMediaType'] !== undefined)
    throw new Error(
      `${where} is binary content, which a JSON body does not carry: store it elsewhere and keep its address (a string) here, ` +
        `or leave it out of the stored schema (${HERE})`,
    );
  const nonNull = types.filter((type) => type !== 'null');
  if (alternatives !== undefined) {
    const kept = alternatives.filter((member) => !isNull(member));
    // One shape or null: that shape's column. Several: JSON, which keeps whichever was written.
    const one = kept.length === 1 && nonNull.length === 0 ? shapeOf(document, where, kept[0]!) : { type: 'json' as const, nullable };
    return { type: one.type, nullable: nullable || one.nullable };
  }
  const members = schema['allOf'] as SchemaObject[] | undefined;
  // One member, the way 3.0 writes a nullable $ref (allOf: [X], nullable: true): that member's column.
  if (members?.length === 1 && schema['properties'] === undefined) {
    const one = shapeOf(document, where, members[0]!);
    return { type: one.type, nullable: nullable || one.nullable };
  }
  if (nonNull.length === 1 && SCALARS[nonNull[0]!] && !members) return { type: SCALARS[nonNull[0]!]!, nullable };
  if (nonNull.length === 0 && values !== undefined) return { type: typeOfValues(values), nullable };
  return { type: 'json', nullable };
}

/** The column of a property: snake_case, `categoryId` → `category_id`. */
export function columnName(property: string): string {
  const column = property
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
  if (!/^[a-z][a-z0-9_]*$/.test(column))
    throw new Error(`property ${JSON.stringify(property)} makes no plain column name (${column}): rename it (${HERE})`);
  return column;
}

/** A random UUID as the server makes one: what a string key must admit for the server to make it. */
const SAMPLE_UUID = '0b7e3f4a-9c2d-4e1f-8a6b-5d4c3b2a1f0e';

/** Whether a string schema admits a UUID: no other format, length or pattern stands against one. */
function admitsUuid(schema: SchemaObject): boolean {
  const { format, pattern, maxLength, minLength, enum: values } = schema as Record<string, unknown>;
  return (
    (format === undefined || format === 'uuid') &&
    values === undefined &&
    (typeof maxLength !== 'number' || maxLength >= SAMPLE_UUID.length) &&
    (typeof minLength !== 'number' || minLength <= SAMPLE_UUID.length) &&
    (typeof pattern !== 'string' || new RegExp(pattern, 'u').test(SAMPLE_UUID))
  );
}

/**
 * Who makes a row's key: the client, when a create writes it; otherwise the server, which makes an
 * integer (an identity; for a \`number\` key too) or a random UUID for a string key that admits one.
 */
function generatedKey(document: OpenApiDocument, persisted: PersistedSchemas, key: Column): Column['generatedKey'] {
  const where = `${persisted.read}.${key.property}, the key of table ${persisted.table},`;
  if (key.type !== 'integer' && key.type !== 'number' && key.type !== 'string')
    throw new Error(`${where} is a ${key.type}: a key is an integer or a string (${HERE})`);
  if (key.written) {
    if (key.type === 'number')
      throw new Error(`${where} is a number the client sends: a key is an integer or a string; make it \`type: integer\` (${HERE})`);
    return undefined;
  }
  if (key.type !== 'string') return 'identity';
  const schema = document.components.schemas[persisted.read]!;
  const property = propertiesOf(document, persisted.read, schema).find(({ name }) => name === key.property)!;
  if (admitsUuid({ ...resolveRef(document, property.schema), ...withoutRef(property.schema) })) return 'uuid';
  throw new Error(
    `${where} is a string no create writes, whose format, length or pattern refuses a UUID, the only string key the server makes. ` +
      `Let it admit a UUID (\`format: uuid\`), make it an integer, or let the client send it (a property of ${persisted.written ?? 'the written schema'}, not readOnly) (${HERE})`,
  );
}

/** The table's columns: the read schema's properties in order, then those only the written one has. */
export function columnsOf(document: OpenApiDocument, persisted: PersistedSchemas): Column[] {
  const { read, written, patched, key: keyProperty } = persisted;
  const schema = (name: string) => {
    const found = document.components.schemas[name];
    if (!found) throw new Error(`openapi.yaml has no schema ${name}, which storage persists (${HERE})`);
    return propertiesOf(document, name, found);
  };
  // readOnly is never written (a create ignores it: the server sets it); writeOnly is never read back.
  const readProperties = schema(read).filter((property) => property.schema['writeOnly'] !== true);
  const writtenProperties = new Map(
    (written ? schema(written) : [])
      .filter((property) => property.schema['readOnly'] !== true)
      .map((property) => [property.name, property]),
  );
  const columns = new Map<string, Column>();
  for (const property of [...readProperties, ...writtenProperties.values()]) {
    if (columns.has(property.name)) continue;
    const inRead = readProperties.find((candidate) => candidate.name === property.name);
    const inWritten = writtenProperties.get(property.name);
    const shape = shapeOf(document, `${inRead ? read : written!}.${property.name}`, property.schema);
    const column: Column = {
      property: property.name,
      column: columnName(property.name),
      type: shape.type,
      read: inRead !== undefined,
      written: inWritten !== undefined,
      patched: false,
      readRequired: inRead?.required ?? false,
      writtenRequired: inWritten?.required ?? false,
      nullable: shape.nullable,
    };
    const defaultValue = (inRead ?? inWritten)!.schema['default'];
    if (['string', 'number', 'boolean'].includes(typeof defaultValue) && column.type !== 'json')
      column.defaultValue = defaultValue as string | number | boolean;
    if (inRead && inWritten) {
      const writtenShape = shapeOf(document, `${written!}.${property.name}`, inWritten.schema);
      if (writtenShape.type !== column.type)
        throw new Error(
          `${read}.${property.name} (${column.type}) and ${written}.${property.name} (${writtenShape.type}) differ in type: ` +
            `one column holds both; give them one type (${HERE})`,
        );
      if (writtenShape.nullable && !column.nullable && column.readRequired)
        throw new Error(
          `${written}.${property.name} may be null, but ${read}.${property.name} is required and never null: make both nullable, or neither (${HERE})`,
        );
      column.nullable ||= writtenShape.nullable;
    }
    if (column.readRequired && column.written && !column.writtenRequired && column.defaultValue === undefined && !column.nullable) {
      throw new Error(
        `${read}.${property.name} is required but ${written}.${property.name} is optional: a create without it would store null. ` +
          `Require it in ${written}, give it a \`default\`, or leave it out of ${written} (${HERE})`,
      );
    }
    columns.set(property.name, column);
  }
  for (const property of patched ? schema(patched) : []) {
    const column = columns.get(property.name);
    const where = `${patched}.${property.name}`;
    if (!column?.read)
      throw new Error(`${where} is no property of ${read}: an update can only change what a read returns; add it to ${read} (${HERE})`);
    const { type, nullable } = shapeOf(document, where, property.schema);
    if (type !== column.type) throw new Error(`${where} and ${read}.${property.name} differ in type: one column holds both (${HERE})`);
    if (nullable && column.readRequired && !column.nullable)
      throw new Error(`${where} may be null, which would remove ${read}.${property.name}, a required property: make it non-null (${HERE})`);
    column.patched = true;
  }
  const byColumn = new Map<string, string>();
  for (const { property, column } of columns.values()) {
    const other = byColumn.get(column);
    if (other) throw new Error(`${read}.${other} and ${read}.${property} would share column ${column}: rename one (${HERE})`);
    byColumn.set(column, property);
  }
  if (persisted.versioned) {
    if (byColumn.has(VERSION_COLUMN))
      throw new Error(
        `${read}.${byColumn.get(VERSION_COLUMN)!} would share column ${VERSION_COLUMN}, where a versioned table keeps each row's version: rename it (${HERE})`,
      );
    // No property: selected after the read columns, raised by every update, 1 for a new row and for the rows there are.
    columns.set(`(${VERSION_COLUMN})`, {
      property: VERSION_COLUMN,
      column: VERSION_COLUMN,
      type: 'integer',
      read: false,
      written: false,
      patched: false,
      readRequired: true,
      writtenRequired: false,
      nullable: false,
      defaultValue: 1,
    });
  }
  const keyColumn = columns.get(keyProperty);
  if (!keyColumn?.read)
    throw new Error(`${read}.${keyProperty}, the key of table ${persisted.table}, must be a property of ${read} (${HERE})`);
  keyColumn.generatedKey = generatedKey(document, persisted, keyColumn);
  // A primary key is never null: every read has it, whatever the schema requires.
  keyColumn.readRequired = true;
  keyColumn.nullable = false;
  return [...columns.values()];
}

/** A foreign key as both backends' migrations write it, and as the stores read a violation of it. */
export interface ForeignKey extends Reference {
  column: string;
  /** The constraint's name (PostgreSQL names the violated one: SQLSTATE 23503). */
  constraint: string;
  /** The table and the key column it names. */
  table: string;
  key: string;
}

export function foreignKeys(document: OpenApiDocument, persisted: PersistedSchemas, all: readonly PersistedSchemas[]): ForeignKey[] {
  return (persisted.references ?? []).map((reference) => {
    const target = all.find(({ read }) => read === reference.schema)!;
    const column = columnsOf(document, persisted).find(({ property }) => property === reference.property);
    if (!column) throw new Error(`${persisted.read} has no property ${reference.property}, which a reference names (${HERE})`);
    return {
      ...reference,
      column: column.column,
      constraint: `${persisted.table}_${column.column}_fkey`,
      table: target.table,
      key: columnName(target.key),
    };
  });
}

/** The foreign keys of every table that name a row of `persisted` and refuse its delete (`onDelete: restrict`). */
export function restrictingKeys(
  document: OpenApiDocument,
  persisted: PersistedSchemas,
  all: readonly PersistedSchemas[],
): { owner: PersistedSchemas; reference: ForeignKey }[] {
  return all.flatMap((owner) =>
    foreignKeys(document, owner, all)
      .filter((reference) => reference.onDelete === 'restrict' && reference.schema === persisted.read)
      .map((reference) => ({ owner, reference })),
  );
}

const literal = (value: unknown) => JSON.stringify(value);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));
const member = (object: string, property: string) =>
  /^[A-Za-z_$][\w$]*$/.test(property) ? `${object}.${property}` : `${object}[${literal(property)}]`;
const label = (property: string) => property.replace(/[^\w$]/g, '_').replace(/^(?=\d)/, '_');
const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);
const upperSnake = (name: string) => columnName(name).toUpperCase();

/** The module for one table: its description, its row types and the mappers both backends use. */
function tableModule(document: OpenApiDocument, persisted: PersistedSchemas, all: readonly PersistedSchemas[]): string {
  const { table, read, written, patched } = persisted;
  const columns = columnsOf(document, persisted);
  const references = foreignKeys(document, persisted, all).map(
    (reference) =>
      `{ property: ${literal(reference.property)}, column: ${literal(reference.column)}, constraint: ${literal(reference.constraint)}, table: ${literal(reference.table)}, key: ${literal(reference.key)} },`,
  );
  const restrictions = restrictingKeys(document, persisted, all).map(
    ({ owner, reference }) =>
      `{ table: ${literal(owner.table)}, column: ${literal(reference.column)}, constraint: ${literal(reference.constraint)} },`,
  );
  const readColumns = columns.filter((column) => column.read);
  const writtenColumns = columns.filter((column) => column.written);
  const patchedColumns = columns.filter((column) => column.patched);
  const cell = (schema: string, { property }: Column, required: boolean) =>
    `${label(property)}: ${required ? `${schema}[${literal(property)}]` : `NonNullable<${schema}[${literal(property)}]> | null`}`;
  const description = columns.map(
    ({ property, column, type, read: isRead, written: isWritten, patched: isPatched }) =>
      `{ property: ${literal(property)}, column: ${literal(column)}, type: ${literal(type)}, read: ${isRead}, written: ${isWritten}, patched: ${isPatched} },`,
  );
  const rowType = `${read}Row`;
  const required = readColumns.flatMap((column, index) => (column.readRequired ? [`${key(column.property)}: row[${index}]`] : []));
  const optional = readColumns.flatMap((column, index) =>
    column.readRequired ? [] : [`if (row[${index}] !== null) ${member('value', column.property)} = row[${index}];`],
  );
  const create = written
    ? `
/** What a create inserts: ${written}'s columns, in order; an absent property is its schema's default, or null. */
export type ${written}Values = [${writtenColumns.map((column) => cell(written, column, column.writtenRequired)).join(', ')}];

export function ${lowerFirst(written)}Values(${lowerFirst(written)}: ${written}): ${written}Values {
  return [${writtenColumns
    .map((column) =>
      column.writtenRequired
        ? member(lowerFirst(written), column.property)
        : `${member(lowerFirst(written), column.property)} ?? ${literal(column.defaultValue ?? null)}`,
    )
    .join(', ')}];
}
`
    : '';
  const patch = patched
    ? `
/**
 * What an update sets: for each of ${patched}'s columns, 1 when the merge patch has the property (0
 * when it leaves it as it is), then its value; null removes the property.
 */
export type ${patched}Values = [${patchedColumns
        .map((column) => `${label(column.property)}Given: 0 | 1, ${cell(patched, column, false)}`)
        .join(', ')}];

export function ${lowerFirst(patched)}Values(${lowerFirst(patched)}: ${patched}): ${patched}Values {
  return [${patchedColumns
    .map(
      (column) =>
        `Object.hasOwn(${lowerFirst(patched)}, ${literal(column.property)}) ? 1 : 0, ${member(lowerFirst(patched), column.property)} ?? null`,
    )
    .join(', ')}];
}
`
    : '';
  const kept = written ? `${read} and ${written}` : read;
  return `
/**
 * Table ${table} keeps ${kept}: one column per property, in snake_case, in the order of
 * ${read}'s properties. A column is \`read\` when ${read} has its property (reads select it)${
   written ? ` and\n * \`written\` when ${written} has it (a create inserts it)` : ''
 }; \`type\` is the property's JSON type.${patched ? `\n * \`patched\`: ${patched} has it, so an update may set it.` : ''}
 * \`key\`: the property that identifies a row (the primary key). \`references\`: the foreign keys,
 * each a column naming the \`key\` column of a row of another \`table\`. \`restrictedBy\`: the foreign
 * keys of other tables that refuse the delete of a row they name (ON DELETE RESTRICT).
 */
export const ${upperSnake(read)}_TABLE = {
  table: ${literal(table)},
  read: ${literal(read)},${written ? `\n  written: ${literal(written)},` : ''}
  key: ${literal(persisted.key)},
  versioned: ${persisted.versioned === true},
  references: [${references.join(' ')}],
  restrictedBy: [${restrictions.join(' ')}],
  columns: [
${description.map((line) => `    ${line}`).join('\n')}
  ],
} as const;

/** A row of ${table} as both backends read it: ${read}'s columns, in order; an absent property is null. */
export type ${rowType} = [${readColumns.map((column) => cell(read, column, column.readRequired)).join(', ')}];

export function ${lowerFirst(read)}FromRow(row: readonly [...${rowType}, ...unknown[]]): ${read} {
  const value: Writable<${read}> = { ${required.join(', ')} };
${optional.map((line) => `  ${line}`).join('\n')}
  return value;
}
${create}${patch}`;
}

/** generated/tables.ts, before formatting. */
export function tablesModule(document: OpenApiDocument, header: string): string {
  const persisted = persistedSchemas(document);
  const schemas = [
    ...new Set(persisted.flatMap(({ read, written, patched }) => [read, ...(written ? [written] : []), ...(patched ? [patched] : [])])),
  ];
  return `${header}import type { components } from './openapi.js';

${schemas.map((name) => `type ${name} = components['schemas'][${literal(name)}];`).join('\n')}

/** A schema's object as a mapper fills it in, readOnly properties included (the server sets those). */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The JSON types a column may hold: each backend says how it stores each. */
export type ColumnType = ${COLUMN_TYPES.map(literal).join(' | ')};
${persisted.map((table) => tableModule(document, table, persisted)).join('')}
/** Every table storage keeps for a schema of openapi.yaml: each backend checks, on opening, that its migrations made them all. */
export const STORED_TABLES = [${persisted.map(({ read }) => `${upperSnake(read)}_TABLE`).join(', ')}] as const;
`;
}
