// The typed client, published as the package `petstore-client` and bundled into one dependency-free ESM file.
export type {
  components,
  ErrorBody,
  NewOrder,
  NewPet,
  operations,
  Order,
  OrderStatus,
  paths,
  Pet,
  PetPatch,
  PetStatus,
  PetStoreClient,
  PreviousPaths,
} from './api-types.js';
export {
  deletePet,
  isPreconditionFailed,
  updatePet,
  type ConditionalWriteOptions,
  type DeletePetResult,
  type PreconditionFailed,
  type UpdatePetResult,
} from './conditional-writes.js';
export { createPetStoreClient, type PetStoreClientOptions } from './create-client.js';
export type { DeprecationHandler, DeprecationNotice } from './deprecation.js';
export { PetStoreApiError, PetStoreNetworkError } from './errors.js';
export { newIdempotencyKey } from './idempotency-key.js';
export type { RetryOptions } from './retry.js';
// Deprecated operations as functions, whose JSDoc (from x-deprecation) editors show struck through.
export { getPet } from '../../../generated/client-deprecations.js';
export { listAllPets, listAllStoreOrders, type ListAllPetsOptions, type ListAllStoreOrdersOptions } from './list-all-pets.js';
