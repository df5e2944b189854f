import { apiError } from '../errors/api-error.js';
import type { PetStore } from '../storage/pets/pets.js';
import { expectedVersions } from './entity-tags.js';
import type { OperationHandler } from './operation.js';

/** deletePet: removes the pet for good (its id is never reused). With If-Match, only while the pet has a tag it lists. */
export function deletePet({ storage }: { storage: PetStore }): OperationHandler<'deletePet'> {
  return async ({ path: { petId }, headers }) => {
    const outcome = await storage.deletePet(petId, expectedVersions(petId, headers['If-Match']));
    if (outcome === 'not_found') throw apiError('pet_not_found', { petId });
    if (outcome === 'version_mismatch') throw apiError('precondition_failed', { petId });
    return { status: 204 };
  };
}
