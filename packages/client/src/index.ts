// The typed client, published as the package `petstore-client` and bundled into one dependency-free ESM file.
// Generic over the document's generated types (openapi-fetch's Client<paths>); the example's helpers are in example.ts.
export type { components, operations, paths, PetStoreClient, PreviousPaths } from './api-types.js';
export { createPetStoreClient, type PetStoreClientOptions } from './create-client.js';
export type { DeprecationHandler, DeprecationNotice } from './deprecation.js';
export { PetStoreApiError, PetStoreNetworkError } from './errors.js';
export { newIdempotencyKey } from './idempotency-key.js';
export type { RetryOptions } from './retry.js';
// Deprecated operations as functions, whose JSDoc (from x-deprecation) editors show struck through.
export * from '../../../generated/client-deprecations.js';
export * from './example.js';
