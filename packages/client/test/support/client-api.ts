import { afterEach, beforeEach, expect } from 'vitest';
import { createPetStoreClient, type Pet, type PetStatus, type PetStoreClient, type PetStoreClientOptions } from '../../src/index.js';
import { contractCheckingFetch, PET_STATUSES, runKeys, startServer, type Backend, type RunningServer } from './pet-store.js';

/** A built server process on a fresh database of one backend, with a key made by the keys CLI. */
export interface ClientApi {
  server: RunningServer;
  apiKey: string;
  /** Every URL the clients of `client()` requested, in order. */
  requested: string[];
  /** A typed client whose every response is checked against openapi.yaml. */
  client: (options?: Partial<PetStoreClientOptions>) => PetStoreClient;
}

export async function startClientApi(backend: Backend): Promise<ClientApi> {
  const env = { DATABASE_URL: await backend.createDatabaseUrl() };
  const keys = runKeys(['create', '--account', 'client'], env);
  if (keys.status !== 0) throw new Error(`keys create failed: ${keys.stderr}`);
  const apiKey = keys.stdout.trim().split('\n').at(-1)!;
  const server = await startServer(env);
  const requested: string[] = [];
  const fetch = (request: Request) => {
    requested.push(request.url);
    return contractCheckingFetch(request);
  };
  return {
    server,
    apiKey,
    requested,
    // Tests that are about deprecation notices pass their own onDeprecation; the rest stay quiet.
    client: (options = {}) => createPetStoreClient({ baseUrl: server.baseUrl, apiKey, fetch, onDeprecation: () => {}, ...options }),
  };
}

/** Gives each test of the enclosing describe block its own ClientApi, stopped cleanly after it. */
export function clientApiPerTest(backend: Backend): () => ClientApi {
  let api: ClientApi | undefined;
  beforeEach(async () => {
    api = await startClientApi(backend);
  });
  afterEach(async () => {
    const stopping = api;
    api = undefined;
    if (stopping) expect(await stopping.server.stop()).toBe(0);
  });
  return () => {
    if (!api) throw new Error('the ClientApi exists only while a test runs');
    return api;
  };
}

/** Creates `count` pets through the client, with statuses in turn (one in four without). */
export async function seedThroughClient(client: PetStoreClient, count: number): Promise<Pet[]> {
  const statuses: (PetStatus | undefined)[] = [...PET_STATUSES, undefined];
  const pets: Pet[] = [];
  for (let i = 0; i < count; i += 1) {
    const status = statuses[i % statuses.length];
    const { data, error } = await client.POST('/pets', {
      body: { name: `pet-${i}`, categoryId: (i % 5) + 1, ...(status ? { status } : {}) },
    });
    if (!data) throw new Error(`seeding failed: ${JSON.stringify(error)}`);
    pets.push(data);
  }
  return pets;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
