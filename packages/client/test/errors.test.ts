import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPetStoreClient, listAllPets, PetStoreNetworkError } from '../src/index.js';

/** A port on 127.0.0.1 that was just free and that nothing listens on now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

describe('a failed connection', () => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  });

  it('rejects with PetStoreNetworkError, the runtime error as its cause, and never as an API error', async () => {
    const client = createPetStoreClient({ baseUrl, apiKey: 'psk_any' });
    const thrown = await client.GET('/pets').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(PetStoreNetworkError);
    expect(thrown).toMatchObject({ method: 'GET', url: `${baseUrl}/pets` });
    const cause = (thrown as PetStoreNetworkError).cause;
    expect(cause).toBeInstanceOf(TypeError); // Node's fetch: TypeError('fetch failed') ...
    expect((cause as TypeError).cause).toMatchObject({ code: 'ECONNREFUSED' }); // ... caused by the socket error
  });

  it('rejects listAllPets with PetStoreNetworkError too', async () => {
    const pets = listAllPets(createPetStoreClient({ baseUrl, apiKey: 'psk_any' }));
    await expect(pets.next()).rejects.toBeInstanceOf(PetStoreNetworkError);
  });

  it('keeps an abort as the abort reason: the caller asked for it', async () => {
    const client = createPetStoreClient({ baseUrl, apiKey: 'psk_any' });
    const thrown = await client.GET('/pets', { signal: AbortSignal.abort() }).catch((error: unknown) => error);
    expect(thrown).not.toBeInstanceOf(PetStoreNetworkError);
    expect(thrown).toMatchObject({ name: 'AbortError' });
  });
});
