// The pets store on PostgreSQL: named statements (postgres-statements.ts), creates without a key
// group-committed (postgres-inserts.ts), keyed creates in one transaction (postgres-idempotency.ts).
import type { PostgresHandWrittenStore } from '../hand-written.js';
import { petFromRow, versionedPetFromRow, type PetRow, type VersionedPetRow } from './pet-table.js';
import type { PetStore } from './pets.js';
import { createPetIdempotently } from './postgres-idempotency.js';
import { PetInserts } from './postgres-inserts.js';
import { GET_PET, LIST_PETS, LIST_PETS_BY_STATUS } from './postgres-statements.js';
import * as petUpdates from './postgres-updates.js';

export const postgresStore: PostgresHandWrittenStore<PetStore> = {
  open({ queries, onCommit }) {
    const inserts = new PetInserts(queries, onCommit);
    return {
      createPet: (pet) => inserts.submit(pet),
      async getPet(id) {
        const [row] = await queries.arrays<VersionedPetRow>(GET_PET, [id]);
        return row && versionedPetFromRow(row);
      },
      async listPets({ limit, status, afterId = 0 }) {
        const rows =
          status === undefined
            ? await queries.arrays<PetRow>(LIST_PETS, [afterId, limit])
            : await queries.arrays<PetRow>(LIST_PETS_BY_STATUS, [status, afterId, limit]);
        return rows.map(petFromRow);
      },
      updatePet: (id, patch, expected) => petUpdates.updatePet(queries, id, patch, expected),
      deletePet: (id, expected) => petUpdates.deletePet(queries, id, expected),
      createPetIdempotently: (pet, idempotency, respond) => createPetIdempotently(queries, pet, idempotency, respond),
    };
  },
};
