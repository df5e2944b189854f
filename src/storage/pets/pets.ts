import type { components } from '../../../generated/openapi.js';
import type { IdempotencyRequest, IdempotentOutcome, RecordedResponse } from '../idempotency.js';
import type { ExpectedRowVersions, MaybePromise } from '../resources.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
/** A JSON Merge Patch of a pet (RFC 7396): the properties to set; null removes one. */
export type PetPatch = components['schemas']['PetPatch'];

/**
 * A pet with its version: a number of storage's own that a create sets to FIRST_PET_VERSION and every
 * update raises, never reused for the pet (its ETag is made of it).
 */
export interface VersionedPet {
  pet: Pet;
  version: number;
}

/** The version of a pet just created: the version column's DEFAULT in both backends' migrations. */
export const FIRST_PET_VERSION = 1;

/**
 * The versions a conditional update or delete accepts (If-Match): the write happens only while the
 * pet has one of them, checked and written in one atomic step. Undefined: any version.
 */
export type ExpectedVersions = ExpectedRowVersions;

/** What an update did: the pet as it is now, or why nothing changed. */
export type PetUpdate = { kind: 'updated'; pet: VersionedPet } | { kind: 'not_found' } | { kind: 'version_mismatch' };

/** What a delete did. */
export type PetDeletion = 'deleted' | 'not_found' | 'version_mismatch';

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
 * and mappers come from generated/tables.ts (see docs/adding-a-field.md).
 */
export interface PetStore {
  /** A new pet, at FIRST_PET_VERSION; its id is never given to another pet. */
  createPet(pet: NewPet): Promise<Pet>;
  /** Answered at once by a backend that reads synchronously (SQLite), so a read costs no promise. */
  getPet(id: number): MaybePromise<VersionedPet | undefined>;
  /** Pets ordered by id ascending; answered at once as getPet is. */
  listPets(query: PetPageQuery): MaybePromise<Pet[]>;
  /**
   * Applies a merge patch and raises the pet's version, if the pet exists and has one of the expected
   * versions: the check and the write are one atomic step, so of two updates that expect the same
   * version, one succeeds and the other finds the version changed. Durable when it resolves.
   */
  updatePet(id: number, patch: PetPatch, expected?: ExpectedVersions): Promise<PetUpdate>;
  /** Removes the pet, on the same terms as updatePet. Its id answers not_found from then on. */
  deletePet(id: number, expected?: ExpectedVersions): Promise<PetDeletion>;
  /**
   * createPet under an Idempotency-Key, as one unit: the key's unexpired record is replayed (or
   * refused), or else the pet and the record with its response (`respond`, called inside the
   * transaction) are committed together. A pet is never stored without its record, nor a record
   * without its pet. Expired records count as absent and are replaced; a few others are deleted.
   */
  createPetIdempotently(pet: NewPet, idempotency: IdempotencyRequest, respond: (pet: Pet) => RecordedResponse): Promise<IdempotentOutcome>;
}
