import type { DeprecationMarkedClient } from '../../../generated/client-deprecations.js';
import type { components } from '../../../generated/openapi.js';

export type { components, operations, paths } from '../../../generated/openapi.js';
/** The previous major version's paths while it is served beside this one (this version's own otherwise). */
export type { PreviousPaths } from '../../../generated/predecessor.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
/** A JSON Merge Patch of a pet (RFC 7396): the fields to change; `status: null` removes the status. */
export type PetPatch = components['schemas']['PetPatch'];
export type Order = components['schemas']['Order'];
export type NewOrder = components['schemas']['NewOrder'];
export type OrderStatus = components['schemas']['OrderStatus'];
/** The one Error object every 4xx and 5xx response carries. */
export type ErrorBody = components['schemas']['Error'];

/**
 * The openapi-fetch client for this API: its own Client<paths>, whose methods carry one extra,
 * deprecated overload per deprecated operation (generated from openapi.yaml's x-deprecation), so
 * that editors strike through `client.GET('/pets/{petId}', …)` as well.
 */
export type PetStoreClient = DeprecationMarkedClient;
