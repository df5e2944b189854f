import type { Storage } from '../storage/storage.js';
import { operationPath } from './links.js';
import type { OperationHandler } from './operation.js';

/** createPet: stores the pet and answers with it and where it can be read (getPet's path). */
export function createPet({ storage, basePath }: { storage: Storage; basePath: string }): OperationHandler<'createPet'> {
  return async ({ body }) => {
    const pet = await storage.createPet(body);
    return { status: 201, body: pet, headers: { Location: operationPath(basePath, 'getPet', { petId: pet.id }) } };
  };
}
