import { apiError } from '../errors/api-error.js';
import type { PetStore } from '../storage/pets.js';
import type { OperationHandler } from './operation.js';

/** getPet (deprecated): one pet by id. Its deprecation headers and 410 are the server's, from the spec. */
export function getPet({ storage }: { storage: PetStore }): OperationHandler<'getPet'> {
  return async ({ path: { petId } }) => {
    const pet = await storage.getPet(petId);
    if (!pet) throw apiError('pet_not_found', { petId });
    return { status: 200, body: pet };
  };
}
