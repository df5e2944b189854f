// The pets store on SQLite: reads prepared on the main thread's connection, answered at once; writes
// run by the writer thread in its group-committed batches (src/storage/sqlite/writer.ts).
import type Database from 'better-sqlite3';
import type { SqliteHandWrittenStore } from '../hand-written.js';
import type { IdempotentOutcome } from '../idempotency.js';
import { storedTable } from '../stored-tables.js';
import {
  NEW_PET_COLUMN_LIST,
  NEW_PET_COLUMNS,
  PET_COLUMN,
  PET_COLUMN_LIST,
  PET_TABLE_NAME,
  newPetValues,
  petFromRow,
  petPatchAssignments,
  petPatchValues,
  VERSION_COLUMN,
  VERSIONED_PET_COLUMN_LIST,
  versionedPetFromRow,
  type NewPetValues,
  type PetPatchValues,
  type PetRow,
  type VersionedPetRow,
} from './pet-table.js';
import type { ExpectedVersions, Pet, PetDeletion, PetStore, PetUpdate } from './pets.js';

/** Pet statements return rows as arrays (better-sqlite3's raw mode; see pet-table.ts). */
function rawRows<P extends unknown[], R = PetRow>(statement: Database.Statement<P>): Database.Statement<P, R> {
  return statement.raw() as unknown as Database.Statement<P, R>;
}

/**
 * The condition of a conditional write: the pet's id, then twice the versions it may have, as null
 * (any) or a JSON array (ExpectedVersions). Numbered parameters (?1) would spare the repeat, but
 * better-sqlite3 binds those by name.
 */
const PET_AT_EXPECTED_VERSION = `${PET_COLUMN.id} = ? AND (? IS NULL OR ${VERSION_COLUMN} IN (SELECT value FROM json_each(?)))`;
type ExpectedVersionParameters = [id: number, expected: string | null, expectedAgain: string | null];

const SELECT_PETS = `SELECT ${PET_COLUMN_LIST} FROM pets`;

/** What the request path reads, on the main thread's connection. */
export function preparePetReads(db: Database.Database) {
  return {
    getPet: rawRows<[number], VersionedPetRow>(db.prepare(`SELECT ${VERSIONED_PET_COLUMN_LIST} FROM pets WHERE ${PET_COLUMN.id} = ?`)),
    listPets: rawRows(db.prepare<[number, number]>(`${SELECT_PETS} WHERE ${PET_COLUMN.id} > ? ORDER BY ${PET_COLUMN.id} LIMIT ?`)),
    listPetsByStatus: rawRows(
      db.prepare<[string, number, number]>(
        `${SELECT_PETS} WHERE ${PET_COLUMN.status} = ? AND ${PET_COLUMN.id} > ? ORDER BY ${PET_COLUMN.id} LIMIT ?`,
      ),
    ),
  };
}

/** The pets' writes, on the writer's connection. */
export function preparePetWrites(db: Database.Database) {
  return {
    insertPet: rawRows(
      db.prepare<NewPetValues>(
        `INSERT INTO pets (${NEW_PET_COLUMN_LIST}) VALUES (${NEW_PET_COLUMNS.map(() => '?').join(', ')}) RETURNING ${PET_COLUMN_LIST}`,
      ),
    ),
    updatePet: rawRows<[...PetPatchValues, ...ExpectedVersionParameters], VersionedPetRow>(
      db.prepare(
        `UPDATE pets SET ${petPatchAssignments(() => '?', 1)} WHERE ${PET_AT_EXPECTED_VERSION} RETURNING ${VERSIONED_PET_COLUMN_LIST}`,
      ),
    ),
    deletePet: db.prepare<ExpectedVersionParameters>(`DELETE FROM pets WHERE ${PET_AT_EXPECTED_VERSION}`),
    petExists: db.prepare<[number]>(`SELECT 1 FROM pets WHERE ${PET_COLUMN.id} = ?`),
  };
}

/** ExpectedVersions as the statements take them: a JSON array (SQLite's json_each reads it), or null for any. */
function expectedColumn(expected: ExpectedVersions): string | null {
  return expected === undefined ? null : JSON.stringify(expected);
}

/** An update as it crosses to the writer thread. */
interface PetUpdateArgs {
  id: number;
  patch: PetPatchValues;
  /** The JSON array of the versions the pet may have, or null for any. */
  expected: string | null;
}

export const sqliteStore: SqliteHandWrittenStore<PetStore> = {
  writes(db) {
    const s = preparePetWrites(db);
    return {
      createPet: { singleStatement: true, run: (values: NewPetValues) => petFromRow(s.insertPet.get(...values)!) },
      // The condition is in the statement; when it matches no row, whether the pet exists says why.
      updatePet: {
        singleStatement: true,
        run: ({ id, patch, expected }: PetUpdateArgs): PetUpdate => {
          const row = s.updatePet.get(...patch, id, expected, expected);
          if (row) return { kind: 'updated', pet: versionedPetFromRow(row) };
          return { kind: s.petExists.get(id) ? 'version_mismatch' : 'not_found' };
        },
      },
      deletePet: {
        singleStatement: true,
        run: ({ id, expected }: Omit<PetUpdateArgs, 'patch'>): PetDeletion => {
          if (s.deletePet.run(id, expected, expected).changes === 1) return 'deleted';
          return s.petExists.get(id) ? 'version_mismatch' : 'not_found';
        },
      },
    };
  },

  open({ db, write, resources }) {
    const reads = preparePetReads(db);
    const table = storedTable(PET_TABLE_NAME);
    return {
      createPet: (pet) => write('createPet', newPetValues(pet)) as Promise<Pet>,
      getPet(id) {
        const row = reads.getPet.get(id);
        return row && versionedPetFromRow(row);
      },
      listPets({ limit, status, afterId = 0 }) {
        const rows = status === undefined ? reads.listPets.all(afterId, limit) : reads.listPetsByStatus.all(status, afterId, limit);
        return rows.map(petFromRow);
      },
      /** In the writer's transaction, so durable when it resolves; the condition is in the UPDATE itself. */
      updatePet: (id, patch, expected) =>
        write('updatePet', {
          id,
          patch: petPatchValues(patch),
          expected: expectedColumn(expected),
        } satisfies PetUpdateArgs) as Promise<PetUpdate>,
      deletePet: (id, expected) => write('deletePet', { id, expected: expectedColumn(expected) }) as Promise<PetDeletion>,
      // The generic keyed insert: the pet and its record in one batch transaction. Pets name no other row.
      createPetIdempotently: (pet, idempotency, respond) =>
        resources.insertRowIdempotently<PetRow>(table, newPetValues(pet), idempotency, (row) =>
          respond(petFromRow(row)),
        ) as Promise<IdempotentOutcome>,
    };
  },
};
