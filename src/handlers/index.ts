// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
// Each operation's handler is src/handlers/<operationId in kebab case>.ts, exporting a function named
// after the operationId that makes the handler from HandlerDeps; `npm run generate` writes one that
// answers 501 for an operation that has none. An operation marked with a CRUD x-storage has its
// handler generated whole, in generated/handlers/.
import { handlerDeps, type HandlerOptions } from './deps.js';
import type { OperationHandlers } from './operation.js';
import { listPets } from './list-pets.js';
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { deletePet } from './delete-pet.js';
import { updatePet } from './update-pet.js';
import { listStoreOrders } from '../../generated/handlers/list-store-orders.js';
import { createStoreOrder } from '../../generated/handlers/create-store-order.js';
import { getStoreOrder } from '../../generated/handlers/get-store-order.js';
import { deleteStoreOrder } from '../../generated/handlers/delete-store-order.js';

export type { HandlerDeps, HandlerOptions } from './deps.js';

/** Every operation's handler, keyed by operationId. */
export function createHandlers(options: HandlerOptions): OperationHandlers {
  const deps = handlerDeps(options);
  return {
    listPets: listPets(deps),
    createPet: createPet(deps),
    getPet: getPet(deps),
    deletePet: deletePet(deps),
    updatePet: updatePet(deps),
    listStoreOrders: listStoreOrders(deps),
    createStoreOrder: createStoreOrder(deps),
    getStoreOrder: getStoreOrder(deps),
    deleteStoreOrder: deleteStoreOrder(deps),
  };
}
