import { exactParams } from './exact-params.js';
import type { PetStoreClient } from './api-types.js';
import type { ErrorBody, Pet, PetPatch } from './pet-store-types.js';

/** The options of a write that may be made conditional on the pet's ETag. */
export interface ConditionalWriteOptions {
  /**
   * The pet's ETag as last seen (from createPet, getPet or updatePet): the write is made only if the
   * pet still has it, and is otherwise answered 412 (`isPreconditionFailed`). `*` makes it only if the
   * pet exists. Without it, the last write wins. Only a write with a tag is retried (see retry.ts).
   */
  ifMatch?: string;
  signal?: AbortSignal;
}

/** The error of a conditional write whose pet changed since the ETag it sent: `412 precondition_failed`. */
export type PreconditionFailed = ErrorBody & { code: 'precondition_failed'; status: 412 };

/** Whether an error is the 412 of a conditional write: read the pet again, and decide anew. */
export function isPreconditionFailed(error: ErrorBody | undefined): error is PreconditionFailed {
  return error?.code === 'precondition_failed';
}

/** openapi-fetch's answer with the pet's new ETag beside the data: the tag for the next conditional write. */
export type UpdatePetResult =
  | { data: Pet; etag: string; error?: undefined; response: Response }
  | { data?: undefined; etag?: undefined; error: ErrorBody; response: Response };

export type DeletePetResult = { error?: undefined; response: Response } | { error: ErrorBody; response: Response };

function ifMatchHeader(options: ConditionalWriteOptions) {
  return options.ifMatch === undefined ? {} : { 'If-Match': options.ifMatch };
}

/**
 * updatePet: applies `patch` (a JSON Merge Patch: only the fields to change; `status: null` removes
 * the status) and answers the whole pet and its new ETag. The error, a 412 included, is returned.
 */
export async function updatePet(
  client: PetStoreClient,
  petId: number,
  patch: PetPatch,
  options: ConditionalWriteOptions = {},
): Promise<UpdatePetResult> {
  const { data, error, response } = await client.PATCH('/pets/{petId}', {
    params: exactParams('updatePet', { path: { petId }, header: ifMatchHeader(options) }),
    body: patch,
    headers: { 'Content-Type': 'application/merge-patch+json' },
    signal: options.signal,
  });
  if (error !== undefined) return { error, response };
  return { data, etag: response.headers.get('ETag')!, response };
}

/** deletePet: removes the pet (its id is never reused). The error, a 412 or a 404 included, is returned. */
export async function deletePet(client: PetStoreClient, petId: number, options: ConditionalWriteOptions = {}): Promise<DeletePetResult> {
  const { error, response } = await client.DELETE('/pets/{petId}', {
    params: exactParams('deletePet', { path: { petId }, header: ifMatchHeader(options) }),
    signal: options.signal,
  });
  return error === undefined ? { response } : { error, response };
}
