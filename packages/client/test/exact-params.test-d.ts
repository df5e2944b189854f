// Compile-time tests of exactParams: `npm test` type-checks this file (tsc) and vitest never runs it.
// Each @ts-expect-error must meet an error: a parameter the spec does not have fails `tsc`.
import { expectTypeOf } from 'vitest';
import { exactParams } from '../src/exact-params.js';

export const listed = exactParams('listPets', { query: { status: 'sold', limit: 5 } });
expectTypeOf(listed.query.status).toEqualTypeOf<'sold'>();

// As openapi-fetch would take it: a query parameter listPets does not have (the rename status → state).
// @ts-expect-error `state` is not a query parameter of listPets
export const renamed = exactParams('listPets', { query: { state: 'sold' } });

// @ts-expect-error a header updatePet does not take
export const unknownHeader = exactParams('updatePet', { path: { petId: 1 }, header: { 'If-Modified-Since': 'x' } });

// @ts-expect-error listPets has no path parameters
export const noSuchLocation = exactParams('listPets', { path: { petId: 1 } });

// @ts-expect-error status takes the spec's values only
export const wrongValue = exactParams('listPets', { query: { status: 'lost' } });

export const optionalHeader = exactParams('deletePet', { path: { petId: 1 }, header: {} });
