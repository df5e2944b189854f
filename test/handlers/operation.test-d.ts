// Compile-time tests of the handler types: `npm test` type-checks this file (tsc) and vitest never
// runs it. Each @ts-expect-error must meet an error, so a type that went loose fails the build.
import type {
  OperationHandler,
  OperationRequest,
  OperationResult,
  RecordedResult,
  RecordingOperationHandler,
} from '../../src/handlers/operation.js';

const pet = { id: 1, name: 'Rex', categoryId: 3 };

const created = { Location: '/v1/pets/1', ETag: '"1-1"' };

export const declared: OperationHandler<'createPet'> = async () => ({ status: 201, body: pet, headers: created });

// @ts-expect-error a status openapi.yaml does not declare for createPet
export const undeclaredStatus: OperationHandler<'createPet'> = async () => ({ status: 200, body: pet, headers: created });

// @ts-expect-error a required header (Location) left out
export const missingHeader: OperationHandler<'createPet'> = async () => ({ status: 201, body: pet, headers: { ETag: '"1-1"' } });

// @ts-expect-error a required header (ETag) left out
export const missingETag: OperationHandler<'getPet'> = async () => ({ status: 200, body: pet });

export const removed: OperationHandler<'deletePet'> = async () => ({ status: 204 });

// @ts-expect-error a 204 has no body
export const removedWithBody: OperationHandler<'deletePet'> = async () => ({ status: 204, body: pet });

// @ts-expect-error a body of the wrong shape (name missing)
export const wrongBody: OperationHandler<'getPet'> = async () => ({ status: 200, body: { id: 1, categoryId: 3 } });

// @ts-expect-error a header the spec marks x-set-by: server is not the handler's to set
export const serverHeader: OperationHandler<'deletePet'> = async () => ({ status: 204, headers: { 'X-Request-Id': 'mine' } });

export const serverHeaderBeside: OperationResult<'getPet'> = {
  status: 200,
  body: pet,
  // @ts-expect-error nor beside the headers the handler does set
  headers: { ETag: '"1-1"', Sunset: 'now' },
};

declare const recordedCreate: RecordedResult<'createPet'>;
declare const recordedGet: RecordedResult<'getPet'>;

export const recording: RecordingOperationHandler<'createPet'> = async () => recordedCreate;

// @ts-expect-error a plain handler answers with a typed result, never a recorded one
export const recordingWithoutSaying: OperationHandler<'createPet'> = async () => recordedCreate;

// @ts-expect-error a response recorded for another operation
export const recordedForAnother: RecordingOperationHandler<'createPet'> = async () => recordedGet;

export function rendersOnlyItsOwnResults(create: OperationRequest<'createPet'>): void {
  create.render({ status: 201, body: pet, headers: created });
  // @ts-expect-error render takes the operation's own results only
  create.render({ status: 200, body: [pet] });
}

export function typedRequests(
  list: OperationRequest<'listPets'>,
  get: OperationRequest<'getPet'>,
  create: OperationRequest<'createPet'>,
  update: OperationRequest<'updatePet'>,
): void {
  // limit has a default in the spec, so it is always there once validated.
  const limit: number = list.query.limit;
  const petId: number = get.path.petId;
  const name: string = create.body.name;
  const key: string | undefined = create.headers['Idempotency-Key'];
  // @ts-expect-error status is optional
  const status: string = list.query.status;
  // The merge patch's body, from application/merge-patch+json as from application/json: status may be null.
  const patched: 'available' | 'pending' | 'sold' | null | undefined = update.body.status;
  const ifMatch: string | undefined = update.headers['If-Match'];
  // @ts-expect-error name may be left out of a patch
  const renamed: string = update.body.name;
  void [limit, petId, name, key, status, patched, ifMatch, renamed];
}
