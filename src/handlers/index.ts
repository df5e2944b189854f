import { DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } from '../config.js';
import type { IdempotencyStore } from '../storage/idempotency.js';
import type { PetStore } from '../storage/pets.js';
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';
import { listStoreOrders } from './list-store-orders.js';
import type { OperationHandlers } from './operation.js';

export interface HandlerDeps {
  /** Where the operations keep pets, and the records of their Idempotency-Keys. */
  storage: PetStore & IdempotencyStore;
  /** The base path the API is served under, e.g. /v1, for the links handlers return. */
  basePath: string;
  /** The current instant; injected so that tests can move time. */
  clock?: () => Date;
  /** How long the record of an Idempotency-Key is kept (IDEMPOTENCY_RETENTION_SECONDS). */
  idempotencyRetentionSeconds?: number;
}

/** Every operation's handler, keyed by operationId: one missing fails `tsc`. */
export function createHandlers(deps: HandlerDeps): OperationHandlers {
  const { clock = () => new Date(), idempotencyRetentionSeconds = DEFAULT_IDEMPOTENCY_RETENTION_SECONDS } = deps;
  return {
    listPets: listPets(deps),
    createPet: createPet({ ...deps, clock, idempotencyRetentionSeconds }),
    getPet: getPet(deps),
    listStoreOrders: listStoreOrders(deps),
  };
}
