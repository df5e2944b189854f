// The pet store example's part of the client: its schemas' types and its helpers (conditional writes
// of a pet, every page of a listing). `npm run new-api` empties this file (scripts/example-manifest.ts).
export type { ErrorBody, NewOrder, NewPet, Order, OrderStatus, Pet, PetPatch, PetStatus } from './pet-store-types.js';
export {
  deletePet,
  isPreconditionFailed,
  updatePet,
  type ConditionalWriteOptions,
  type DeletePetResult,
  type PreconditionFailed,
  type UpdatePetResult,
} from './conditional-writes.js';
export { listAllPets, listAllStoreOrders, type ListAllPetsOptions, type ListAllStoreOrdersOptions } from './list-all-pets.js';
