import type { OperationHandlers } from './operation-handler.js';
import { createPet, getPet, listPets, type PetHandlerDeps } from './pets.js';
import { listStoreOrders } from './store.js';

export type HandlerDeps = PetHandlerDeps;

export function createHandlers(deps: HandlerDeps): OperationHandlers {
  return {
    listPets: listPets(deps),
    createPet: createPet(deps),
    getPet: getPet(deps),
    listStoreOrders: listStoreOrders(),
  };
}
