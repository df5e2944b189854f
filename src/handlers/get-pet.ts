import { apiError } from '../errors/api-error.js';
import type { PetStore, VersionedPet } from '../storage/pets/pets.js';
import { petETag } from './entity-tags.js';
import type { OperationHandler, OperationResult } from './operation.js';

/**
 * getPet (deprecated): one pet by id, with its ETag. Its deprecation headers and 410 are the server's,
 * from the spec, and so is the 304 of an If-None-Match that lists the ETag (operation-route.ts).
 */
export function getPet({ storage }: { storage: PetStore }): OperationHandler<'getPet'> {
  // Without async: on a backend that answers at once, so does the handler.
  return ({ path: { petId } }) => {
    const found = storage.getPet(petId);
    return found instanceof Promise ? found.then((pet) => answer(petId, pet)) : answer(petId, found);
  };
}

function answer(petId: number, found: VersionedPet | undefined): OperationResult<'getPet'> {
  if (!found) throw apiError('pet_not_found', { petId });
  return { status: 200, body: found.pet, headers: { ETag: petETag(petId, found.version) } };
}
