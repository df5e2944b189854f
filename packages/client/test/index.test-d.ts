// Compile-time tests: `npm test` type-checks this file (tsc -p tsconfig.json) and vitest never runs
// it. Each @ts-expect-error must meet an error, so a type that went loose fails the build too.
import type { Client, MethodResponse } from 'openapi-fetch';
import { expectTypeOf } from 'vitest';
import {
  createPetStoreClient,
  getPet,
  listAllPets,
  PetStoreApiError,
  type ErrorBody,
  type paths,
  type Pet,
  type PetStoreClient,
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
  expectTypeOf<PetStoreApiError['error']>().toEqualTypeOf<ErrorBody>();
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
