import type { Queries } from '../postgres/queries.js';
import { petPatchValues, versionedPetFromRow, type VersionedPetRow } from './pet-table.js';
import type { ExpectedVersions, PetDeletion, PetPatch, PetUpdate } from './pets.js';
import { DELETE_PET, PET_EXISTS, UPDATE_PET } from './postgres-statements.js';

/**
 * Why a conditional write matched no row. Asked after it, outside its statement, yet always true of
 * some instant since: a pet that is gone stays gone (ids are never reused), and a version that did not
 * match stays unmatched (versions only grow), so a pet that exists now had another version then.
 */
async function whyNoRow(queries: Queries, id: number): Promise<'not_found' | 'version_mismatch'> {
  return (await queries.rows(PET_EXISTS, [id])).length > 0 ? 'version_mismatch' : 'not_found';
}

/** One statement, committed on its own: the version check and the write are one atomic step. */
export async function updatePet(queries: Queries, id: number, patch: PetPatch, expected: ExpectedVersions): Promise<PetUpdate> {
  const [row] = await queries.arrays<VersionedPetRow>(UPDATE_PET, [id, expected ?? null, ...petPatchValues(patch)]);
  if (row) return { kind: 'updated', pet: versionedPetFromRow(row) };
  return { kind: await whyNoRow(queries, id) };
}

export async function deletePet(queries: Queries, id: number, expected: ExpectedVersions): Promise<PetDeletion> {
  const rows = await queries.arrays(DELETE_PET, [id, expected ?? null]);
  return rows.length > 0 ? 'deleted' : whyNoRow(queries, id);
}
