import { describe, expect, it } from 'vitest';
import { createPetStoreClient, newIdempotencyKey } from '../src/index.js';

const UUID_STRING = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

/** A client whose fetch answers 201 and keeps every request it was sent. */
function recordingClient() {
  const sent: Request[] = [];
  const client = createPetStoreClient({
    baseUrl: 'http://127.0.0.1/v1',
    apiKey: 'psk_any',
    fetch: async (request) => {
      sent.push(request);
      return new Response('{"id":1,"name":"Rex","categoryId":1}', { status: 201, headers: { 'Content-Type': 'application/json' } });
    },
  });
  return { client, sent };
}

describe('Idempotency-Key on createPet', () => {
  it('is a new random UUID, as the draft String, for every call', async () => {
    const { client, sent } = recordingClient();
    await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    const keys = sent.map((request) => request.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(UUID_STRING);
    expect(keys[1]).toMatch(UUID_STRING);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("is the caller's when one is given", async () => {
    const { client, sent } = recordingClient();
    await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 }, params: { header: { 'Idempotency-Key': '"order-17"' } } });
    expect(sent[0]!.headers.get('Idempotency-Key')).toBe('"order-17"');
  });

  it('is sent only to operations that take one', async () => {
    const { client, sent } = recordingClient();
    await client.GET('/pets');
    expect(sent[0]!.headers.has('Idempotency-Key')).toBe(false);
  });

  it('comes from newIdempotencyKey, for callers who keep their own', () => {
    expect(newIdempotencyKey()).toMatch(UUID_STRING);
  });
});
