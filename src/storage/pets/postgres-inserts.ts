import { GroupCommit, type Settled } from '../group-commit.js';
import type { Queries } from '../postgres/queries.js';
import type { CommitObserver } from '../storage-metrics.js';
import { StorageUnavailableError } from '../storage.js';
import { NEW_PET_COLUMNS, newPetValues, PET_ID_INDEX, petFromRow, type PetRow } from './pet-table.js';
import type { NewPet, Pet } from './pets.js';
import { INSERT_PET, INSERT_PETS } from './postgres-statements.js';

/** Creates without a key, group-committed: those that arrive while a batch is inserted go in the next. */
export class PetInserts {
  private readonly batches: GroupCommit<NewPet, Pet>;

  constructor(
    private readonly queries: Queries,
    onCommit?: CommitObserver,
  ) {
    this.batches = new GroupCommit(async (pets) => {
      const started = performance.now();
      const settled = await this.insert(pets);
      onCommit?.(pets.length, (performance.now() - started) / 1000);
      return settled;
    });
  }

  submit(pet: NewPet): Promise<Pet> {
    return this.batches.submit(pet);
  }

  /**
   * One statement for the batch. If it fails for a reason other than an unreachable database (which
   * fails them all, as 503), each pet is inserted on its own, so that only a pet whose row fails
   * fails; none is acknowledged without its own commit.
   */
  private async insert(pets: NewPet[]): Promise<Array<Settled<Pet>>> {
    const values = pets.map(newPetValues);
    if (pets.length > 1) {
      try {
        const columns = NEW_PET_COLUMNS.map((_, column) => values.map((row) => row[column]));
        const rows = await this.queries.arrays<PetRow>(INSERT_PETS, columns);
        return rows
          .sort((a, b) => (a[PET_ID_INDEX] as number) - (b[PET_ID_INDEX] as number))
          .map((row) => ({ ok: true, value: petFromRow(row) }));
      } catch (error) {
        if (error instanceof StorageUnavailableError) throw error;
      }
    }
    return Promise.all(
      values.map(async (row): Promise<Settled<Pet>> => {
        try {
          const [inserted] = await this.queries.arrays<PetRow>(INSERT_PET, row);
          return { ok: true, value: petFromRow(inserted!) };
        } catch (error) {
          return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
        }
      }),
    );
  }
}
