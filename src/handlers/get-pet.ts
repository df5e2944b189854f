import { apiError } from '../errors/api-error.js';
import type { PetStore } from '../storage/pets.js';
import { petETag } from './entity-tags.js';
import type { OperationHandler } from './operation.js';

/**
 * getPet (deprecated): one pet by id, with its ETag. Its deprecation headers and 410 are the server's,
 * from the spec, and so is the 304 of an If-None-Match that lists the ETag (operation-route.ts).
 */
export function getPet({ storage }: { storage: PetStore }): OperationHandler<'getPet'> {
  return async ({ path: { petId } }) => {
    const found = await storage.getPet(petId);
    if (!found) throw apiError('pet_not_found', { petId });
    return { status: 200, body: found.pet, headers: { ETag: petETag(petId, found.version) } };
  };
}
