import { apiError } from '../errors/api-error.js';
import type { PetStore, VersionedPet } from '../storage/pets/pets.js';
import { expectedVersions, petETag } from './entity-tags.js';
import type { OperationHandler, OperationResult } from './operation.js';

function changed({ pet, version }: VersionedPet): OperationResult<'updatePet'> {
  return { status: 200, body: pet, headers: { ETag: petETag(pet.id, version) } };
}

/**
 * updatePet: applies the merge patch (RFC 7396) to the pet and answers it whole, with its new ETag.
 * With If-Match, only while the pet has a tag it lists: storage checks and writes in one step.
 */
export function updatePet({ storage }: { storage: PetStore }): OperationHandler<'updatePet'> {
  return async ({ path: { petId }, headers, body }) => {
    const expected = expectedVersions(petId, headers['If-Match']);
    // {} changes nothing, so nothing is written and the ETag stays; If-Match still has to hold.
    if (Object.keys(body).length === 0) {
      const found = await storage.getPet(petId);
      if (!found) throw apiError('pet_not_found', { petId });
      if (expected !== undefined && !expected.includes(found.version)) throw apiError('precondition_failed', { petId });
      return changed(found);
    }
    const outcome = await storage.updatePet(petId, body, expected);
    if (outcome.kind === 'not_found') throw apiError('pet_not_found', { petId });
    if (outcome.kind === 'version_mismatch') throw apiError('precondition_failed', { petId });
    return changed(outcome.pet);
  };
}
