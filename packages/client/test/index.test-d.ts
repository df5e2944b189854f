// Compile-time tests: `npm test` type-checks this file (tsc -p tsconfig.json) and vitest never runs
// it. Each @ts-expect-error must meet an error, so a type that went loose fails the build too.
import type { Client, MethodResponse } from 'openapi-fetch';
import { expectTypeOf } from 'vitest';
import {
  createPetStoreClient,
  deletePet,
  getPet,
  isPreconditionFailed,
  listAllPets,
  PetStoreApiError,
  updatePet,
  type ErrorBody,
  type paths,
  type Pet,
  type PetPatch,
  type PetStoreClient,
  type PreconditionFailed,
  type PreviousPaths,
} from '../src/index.js';

declare const client: PetStoreClient;

export async function typedResults(): Promise<void> {
  const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'available' } });
  expectTypeOf(created.data).toEqualTypeOf<Pet | undefined>();
  expectTypeOf(created.error).toEqualTypeOf<ErrorBody | undefined>();
  if (created.error) {
    expectTypeOf<'validation_failed'>().toExtend<typeof created.error.code>();
    expectTypeOf<'no_such_code'>().not.toExtend<typeof created.error.code>();
  } else expectTypeOf(created.data).toEqualTypeOf<Pet>();

  const page = await client.GET('/pets', { params: { query: { status: 'sold', limit: 10, cursor: 'abc' } } });
  expectTypeOf(page.data).toEqualTypeOf<Pet[] | undefined>();
  const one = await getPet(client, 1);
  expectTypeOf(one.data).toEqualTypeOf<Pet | undefined>();
  const viaPath = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
  expectTypeOf(viaPath.data).toEqualTypeOf<Pet | undefined>();

  expectTypeOf(listAllPets(client)).toEqualTypeOf<AsyncGenerator<Pet, void, undefined>>();
  expectTypeOf<PetStoreApiError<ErrorBody>['error']>().toEqualTypeOf<ErrorBody>();
}

export async function conditionalWrites(): Promise<void> {
  // client.PATCH and client.DELETE, typed from the spec: the merge patch, If-Match, the answers.
  const patched = await client.PATCH('/pets/{petId}', {
    params: { path: { petId: 1 }, header: { 'If-Match': '"1-1"' } },
    body: { status: null, name: 'Rexie' },
  });
  expectTypeOf(patched.data).toEqualTypeOf<Pet | undefined>();
  expectTypeOf(patched.error).toEqualTypeOf<ErrorBody | undefined>();
  const removed = await client.DELETE('/pets/{petId}', { params: { path: { petId: 1 } } });
  expectTypeOf(removed.error).toEqualTypeOf<ErrorBody | undefined>();

  const updated = await updatePet(client, 1, { status: 'sold' }, { ifMatch: '"1-1"' });
  if (updated.error === undefined) {
    expectTypeOf(updated.data).toEqualTypeOf<Pet>();
    expectTypeOf(updated.etag).toEqualTypeOf<string>();
  } else if (isPreconditionFailed(updated.error)) {
    expectTypeOf(updated.error).toEqualTypeOf<PreconditionFailed>();
    expectTypeOf(updated.error.status).toEqualTypeOf<412>();
  }
  const deleted = await deletePet(client, 1, { ifMatch: '*' });
  expectTypeOf(deleted.error).toEqualTypeOf<ErrorBody | undefined>();
  // The spec's merge patch, whatever fields it has (a field added to it follows).
  expectTypeOf<PetPatch>().toEqualTypeOf<paths['/pets/{petId}']['patch']['requestBody']['content']['application/merge-patch+json']>();
  await updatePet(client, 1, { status: null });

  // @ts-expect-error a merge patch cannot change the id
  await updatePet(client, 1, { id: 2 });
  // @ts-expect-error name may be left out, never null: it is required
  await updatePet(client, 1, { name: null });
  // @ts-expect-error a status outside the enum
  await updatePet(client, 1, { status: 'lost' });
  // @ts-expect-error an ETag is a string
  await deletePet(client, 1, { ifMatch: 1 });
  // @ts-expect-error petId is a number
  await client.PATCH('/pets/{petId}', { params: { path: { petId: '1' } }, body: {} });
  // @ts-expect-error the body of a PATCH is required
  await client.PATCH('/pets/{petId}', { params: { path: { petId: 1 } } });
}

export async function idempotentCreates(): Promise<void> {
  await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 }, params: { header: { 'Idempotency-Key': '"order-17"' } } });
  // @ts-expect-error a key is a string
  await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 }, params: { header: { 'Idempotency-Key': 17 } } });
  createPetStoreClient({ baseUrl: '', apiKey: '', retries: { attempts: 3, baseDelayMs: 50, maxDelayMs: 1_000 } });
  createPetStoreClient({ baseUrl: '', apiKey: '', retries: false });
  // @ts-expect-error retries is options or false
  createPetStoreClient({ baseUrl: '', apiKey: '', retries: true });
}

export function stillTheOpenapiFetchClient(): void {
  // Everything openapi-fetch documents applies: it is its Client, and its type helpers work on it.
  expectTypeOf(createPetStoreClient({ baseUrl: '', apiKey: '' })).toExtend<Client<paths>>();
  expectTypeOf<MethodResponse<Client<paths>, 'get', '/pets'>>().toEqualTypeOf<Pet[]>();
}

export async function rejectedAtCompileTime(): Promise<void> {
  // @ts-expect-error a status outside the enum
  await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'lost' } });
  // @ts-expect-error a status outside the enum, as a filter
  await client.GET('/pets', { params: { query: { status: 'adopted' } } });
  // @ts-expect-error categoryId is required
  await client.POST('/pets', { body: { name: 'Rex' } });
  // @ts-expect-error the body itself is required
  await client.POST('/pets');
  // @ts-expect-error categoryId is an integer, not a string
  await client.POST('/pets', { body: { name: 'Rex', categoryId: '3' } });
  // @ts-expect-error limit is a number
  await client.GET('/pets', { params: { query: { limit: '10' } } });
  // @ts-expect-error petId is a number
  await client.GET('/pets/{petId}', { params: { path: { petId: '1' } } });
  // @ts-expect-error the path parameter is required
  await client.GET('/pets/{petId}');
  // @ts-expect-error petId is a number
  await getPet(client, '1');
  // @ts-expect-error no such path in the spec
  await client.GET('/animals');
  // @ts-expect-error no such method on the path
  await client.DELETE('/pets');
  // @ts-expect-error pageSize is a number
  listAllPets(client, { pageSize: '10' });
  // @ts-expect-error apiKey is required
  createPetStoreClient({ baseUrl: 'http://127.0.0.1:8080/v1' });
}

// Either major version while two are served: this one's by default, the previous one's by its paths.
export function eitherVersion(): void {
  const current = createPetStoreClient({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'k' });
  expectTypeOf(current).toEqualTypeOf<PetStoreClient>();
  const previous = createPetStoreClient<PreviousPaths>({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'k' });
  expectTypeOf(previous).toEqualTypeOf<Client<PreviousPaths>>();
  // @ts-expect-error a path neither version has
  void previous.GET('/pets/{petId}/photos', {});
}
