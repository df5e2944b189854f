#!/usr/bin/env node
// Adds a pet, then lists every available pet a page at a time, with the typed client bundle.
//   npm start                                     # in another terminal; prints an admin key on first start
//   PETSTORE_API_KEY=psk_... node examples/list-and-create.mjs
// PETSTORE_BASE_URL defaults to http://127.0.0.1:8080/v1. `petstore-client` is the workspace package
// packages/client, whose dist/index.js npm start and npm run build make.
import { createPetStoreClient, listAllPets, PetStoreNetworkError } from 'petstore-client';

const baseUrl = process.env.PETSTORE_BASE_URL ?? 'http://127.0.0.1:8080/v1';
const apiKey = process.env.PETSTORE_API_KEY;
if (!apiKey) {
  console.error('Set PETSTORE_API_KEY, e.g. to the key of: npm run --silent keys -- create --account example');
  process.exit(2);
}

const client = createPetStoreClient({ baseUrl, apiKey });

try {
  // HTTP errors come back as `error`, the API's Error object; they are never thrown.
  const {
    data: pet,
    error,
    response,
  } = await client.POST('/pets', {
    body: { name: process.argv[2] ?? 'Rex', categoryId: 3, status: 'available' },
  });
  if (error) {
    console.error(`createPet failed: ${response.status} ${error.code}: ${error.message}`);
    process.exit(1);
  }
  console.log(`Created pet ${pet.id} (${pet.name}) at ${response.headers.get('Location')}`);

  let count = 0;
  for await (const { id, name } of listAllPets(client, { status: 'available', pageSize: 50 })) {
    console.log(`  #${id} ${name}`);
    count += 1;
  }
  console.log(`${count} available pet(s).`);
} catch (failure) {
  // Only a failed connection is thrown as PetStoreNetworkError; listAllPets throws PetStoreApiError.
  if (failure instanceof PetStoreNetworkError) {
    console.error(`No response from ${baseUrl}: is the server running (npm start)? ${failure.message}`);
    process.exit(1);
  }
  throw failure;
}
