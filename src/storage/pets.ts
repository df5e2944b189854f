import type { components } from '../../generated/openapi.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];

export interface PetPageQuery {
  /** Rows to return at most. */
  limit: number;
  /** Only pets with this status. */
  status?: PetStatus;
  /** Only pets whose id is greater than this (keyset paging). */
  afterId?: number;
}

/**
 * The catalogue's pets, stored as openapi.yaml's Pet and NewPet describe them: their columns, rows
 * and mappers come from generated/pet-table.ts (see docs/adding-a-field.md).
 */
export interface PetStore {
  createPet(pet: NewPet): Promise<Pet>;
  getPet(id: number): Promise<Pet | undefined>;
  /** Pets ordered by id ascending. */
  listPets(query: PetPageQuery): Promise<Pet[]>;
}
