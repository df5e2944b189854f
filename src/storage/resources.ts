import type { IdempotencyRequest, IdempotentOutcome, RecordedResponse } from './idempotency.js';
import type { StoredTable } from './stored-tables.js';

/** A value, or a promise of it: what a backend that can answer synchronously returns at once. */
export type MaybePromise<T> = T | Promise<T>;

/** A row's key: the value of its table's key column. */
export type RowKey = number | string;

/** A row as both backends read it: the read schema's columns, in order (generated/tables.ts's row types). */
export type StoredRow = unknown[];

/** Why an insert stored nothing: a reference (a property) that names no row, or a key (one the client sent) that a row has already. */
export type RowRefusal = { kind: 'missing_reference'; property: string } | { kind: 'duplicate_key' };

/** What an insert did: the row as stored, or why it was refused. */
export type RowCreation<Row extends StoredRow> = { kind: 'created'; row: Row } | RowRefusal;

/**
 * What came of an insert under an Idempotency-Key: as any keyed create's, or the reference that
 * names no row (then nothing was created nor recorded, so a retry is checked afresh).
 */
export type IdempotentRowOutcome = IdempotentOutcome | RowRefusal;

/**
 * What a delete did: the row is gone, there was none, its version was none of those expected, or a
 * foreign key (its constraint) refuses it (ON DELETE RESTRICT).
 */
export type RowDeletion =
  { kind: 'deleted' } | { kind: 'not_found' } | { kind: 'precondition_failed' } | { kind: 'restricted'; constraint: string };

/** What an update did: the row as it is now, or none, or its version was none of those expected. */
export type RowUpdate<Row extends StoredRow> = { kind: 'updated'; row: Row } | { kind: 'not_found' } | { kind: 'precondition_failed' };

/**
 * The versions of a versioned row a write accepts (If-Match): undefined for any, otherwise a list,
 * possibly empty (then the write changes nothing).
 */
export type ExpectedRowVersions = readonly number[] | undefined;

export interface RowPage {
  /** Rows to return at most. */
  limit: number;
  /** Only rows whose key is greater than this (keyset paging). */
  afterKey?: RowKey;
  /** Only rows whose property equals the value, for each property given a value. */
  filters: Readonly<Record<string, string | number | boolean | undefined>>;
}

/**
 * The rows of every table openapi.yaml marks `x-storage`, for the handlers `npm run generate` writes
 * for its CRUD operations: one generic store per backend, driven by generated/tables.ts. Writes go
 * through the backend's write path (SQLite's writer thread and its group commit); a foreign key is
 * checked by the database in the insert's own transaction.
 */
export interface ResourceStore {
  insertRow<Row extends StoredRow>(table: StoredTable, values: readonly unknown[]): Promise<RowCreation<Row>>;
  /**
   * insertRow under an Idempotency-Key, as one unit, as a hand-written store's keyed create: the
   * key's unexpired record is replayed (or refused), or else the row and the record with its response
   * (`respond`, called inside the transaction) are committed together.
   */
  insertRowIdempotently<Row extends StoredRow>(
    table: StoredTable,
    values: readonly unknown[],
    idempotency: IdempotencyRequest,
    respond: (row: Row) => RecordedResponse,
  ): Promise<IdempotentRowOutcome>;
  /** Answered at once by a backend that reads synchronously (SQLite). */
  getRow<Row extends StoredRow>(table: StoredTable, key: number | string): MaybePromise<Row | undefined>;
  /** Rows ordered by key ascending; answered at once as getRow is. */
  listRows<Row extends StoredRow>(table: StoredTable, page: RowPage): MaybePromise<Row[]>;
  /** Applies a merge patch (generated/tables.ts's <Patch>Values) to the row, if its version is one expected. */
  updateRow<Row extends StoredRow>(
    table: StoredTable,
    key: number | string,
    patch: readonly unknown[],
    expected?: ExpectedRowVersions,
  ): Promise<RowUpdate<Row>>;
  /**
   * Deletes the row: the rows that name it go with it or refuse the delete, as their ON DELETE says,
   * decided by the database in the delete's own transaction.
   */
  deleteRow(table: StoredTable, key: number | string, expected?: ExpectedRowVersions): Promise<RowDeletion>;
}
