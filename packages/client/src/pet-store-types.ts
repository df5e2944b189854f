// The pet store example's schemas, as the client's helpers for it and its users name them.
import type { components } from '../../../generated/openapi.js';

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
