// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import type { components } from './openapi.js';

type Pet = components['schemas']['Pet'];
type NewPet = components['schemas']['NewPet'];
type PetPatch = components['schemas']['PetPatch'];
type Order = components['schemas']['Order'];
type NewOrder = components['schemas']['NewOrder'];

/** A schema's object as a mapper fills it in, readOnly properties included (the server sets those). */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The JSON types a column may hold: each backend says how it stores each. */
export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'json';

/**
 * Table pets keeps Pet and NewPet: one column per property, in snake_case, in the order of
 * Pet's properties. A column is `read` when Pet has its property (reads select it) and
 * `written` when NewPet has it (a create inserts it); `type` is the property's JSON type.
 * `patched`: PetPatch has it, so an update may set it.
 * `key`: the property that identifies a row (the primary key). `references`: the foreign keys,
 * each a column naming the `key` column of a row of another `table`. `restrictedBy`: the foreign
 * keys of other tables that refuse the delete of a row they name (ON DELETE RESTRICT).
 */
export const PET_TABLE = {
  table: 'pets',
  read: 'Pet',
  written: 'NewPet',
  key: 'id',
  versioned: false,
  references: [],
  restrictedBy: [],
  columns: [
    { property: 'id', column: 'id', type: 'integer', read: true, written: false, patched: false },
    { property: 'name', column: 'name', type: 'string', read: true, written: true, patched: true },
    { property: 'categoryId', column: 'category_id', type: 'integer', read: true, written: true, patched: true },
    { property: 'status', column: 'status', type: 'string', read: true, written: true, patched: true },
  ],
} as const;

/** A row of pets as both backends read it: Pet's columns, in order; an absent property is null. */
export type PetRow = [id: Pet['id'], name: Pet['name'], categoryId: Pet['categoryId'], status: NonNullable<Pet['status']> | null];

export function petFromRow(row: readonly [...PetRow, ...unknown[]]): Pet {
  const value: Writable<Pet> = { id: row[0], name: row[1], categoryId: row[2] };
  if (row[3] !== null) value.status = row[3];
  return value;
}

/** What a create inserts: NewPet's columns, in order; an absent property is its schema's default, or null. */
export type NewPetValues = [name: NewPet['name'], categoryId: NewPet['categoryId'], status: NonNullable<NewPet['status']> | null];

export function newPetValues(newPet: NewPet): NewPetValues {
  return [newPet.name, newPet.categoryId, newPet.status ?? null];
}

/**
 * What an update sets: for each of PetPatch's columns, 1 when the merge patch has the property (0
 * when it leaves it as it is), then its value; null removes the property.
 */
export type PetPatchValues = [
  nameGiven: 0 | 1,
  name: NonNullable<PetPatch['name']> | null,
  categoryIdGiven: 0 | 1,
  categoryId: NonNullable<PetPatch['categoryId']> | null,
  statusGiven: 0 | 1,
  status: NonNullable<PetPatch['status']> | null,
];

export function petPatchValues(petPatch: PetPatch): PetPatchValues {
  return [
    Object.hasOwn(petPatch, 'name') ? 1 : 0,
    petPatch.name ?? null,
    Object.hasOwn(petPatch, 'categoryId') ? 1 : 0,
    petPatch.categoryId ?? null,
    Object.hasOwn(petPatch, 'status') ? 1 : 0,
    petPatch.status ?? null,
  ];
}

/**
 * Table orders keeps Order and NewOrder: one column per property, in snake_case, in the order of
 * Order's properties. A column is `read` when Order has its property (reads select it) and
 * `written` when NewOrder has it (a create inserts it); `type` is the property's JSON type.
 * `key`: the property that identifies a row (the primary key). `references`: the foreign keys,
 * each a column naming the `key` column of a row of another `table`. `restrictedBy`: the foreign
 * keys of other tables that refuse the delete of a row they name (ON DELETE RESTRICT).
 */
export const ORDER_TABLE = {
  table: 'orders',
  read: 'Order',
  written: 'NewOrder',
  key: 'id',
  versioned: false,
  references: [{ property: 'petId', column: 'pet_id', constraint: 'orders_pet_id_fkey', table: 'pets', key: 'id' }],
  restrictedBy: [],
  columns: [
    { property: 'id', column: 'id', type: 'integer', read: true, written: false, patched: false },
    { property: 'petId', column: 'pet_id', type: 'integer', read: true, written: true, patched: false },
    { property: 'quantity', column: 'quantity', type: 'integer', read: true, written: true, patched: false },
    { property: 'shipDate', column: 'ship_date', type: 'string', read: true, written: true, patched: false },
    { property: 'status', column: 'status', type: 'string', read: true, written: false, patched: false },
  ],
} as const;

/** A row of orders as both backends read it: Order's columns, in order; an absent property is null. */
export type OrderRow = [
  id: Order['id'],
  petId: Order['petId'],
  quantity: Order['quantity'],
  shipDate: NonNullable<Order['shipDate']> | null,
  status: Order['status'],
];

export function orderFromRow(row: readonly [...OrderRow, ...unknown[]]): Order {
  const value: Writable<Order> = { id: row[0], petId: row[1], quantity: row[2], status: row[4] };
  if (row[3] !== null) value.shipDate = row[3];
  return value;
}

/** What a create inserts: NewOrder's columns, in order; an absent property is its schema's default, or null. */
export type NewOrderValues = [petId: NewOrder['petId'], quantity: NewOrder['quantity'], shipDate: NonNullable<NewOrder['shipDate']> | null];

export function newOrderValues(newOrder: NewOrder): NewOrderValues {
  return [newOrder.petId, newOrder.quantity, newOrder.shipDate ?? null];
}

/** Every table storage keeps for a schema of openapi.yaml: each backend checks, on opening, that its migrations made them all. */
export const STORED_TABLES = [PET_TABLE, ORDER_TABLE] as const;
