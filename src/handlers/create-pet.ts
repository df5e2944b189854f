import { FIRST_PET_VERSION, type Pet, type PetStore } from '../storage/pets/pets.js';
import { petETag } from './entity-tags.js';
import { answerOf, idempotencyKeyOf, requestFingerprint } from './idempotency.js';
import { operationPath } from './links.js';
import type { OperationResult, RecordingOperationHandler } from './operation.js';

export interface CreatePetDeps {
  storage: PetStore;
  basePath: string;
  /** The current instant (records expire by it). */
  clock: () => Date;
  /** How long the record of an Idempotency-Key is kept. */
  idempotencyRetentionSeconds: number;
}

/**
 * createPet: stores the pet and answers with it, its ETag and where it can be read (getPet's path). With an
 * Idempotency-Key, the answer is rendered and recorded with the pet, and a retry gets it again.
 */
export function createPet({
  storage,
  basePath,
  clock,
  idempotencyRetentionSeconds,
}: CreatePetDeps): RecordingOperationHandler<'createPet'> {
  const created = (pet: Pet): OperationResult<'createPet'> => ({
    status: 201,
    body: pet,
    headers: { Location: operationPath(basePath, 'getPet', { petId: pet.id }), ETag: petETag(pet.id, FIRST_PET_VERSION) },
  });
  return async ({ body, headers, principal, render }) => {
    const header = headers['Idempotency-Key'];
    if (header === undefined) return created(await storage.createPet(body));
    const now = clock();
    const idempotency = {
      accountId: principal.accountId,
      key: idempotencyKeyOf(header),
      fingerprint: requestFingerprint(body),
      now,
      expiresAt: new Date(now.getTime() + idempotencyRetentionSeconds * 1000),
    };
    return answerOf(await storage.createPetIdempotently(body, idempotency, (pet) => render(created(pet))));
  };
}
