import { describe, expect, it } from 'vitest';
import { allBackends } from '../support/backends.js';
import { burstUntilKilled, KILL_AFTER } from '../support/crash-burst.js';
import { QUOTA_NEVER_REACHED, runKeys, startServer } from '../support/processes.js';

interface Created {
  id: number;
  name: string;
  categoryId: number;
}

describe.each(allBackends)('acknowledged writes survive a crash [$name]', (backend) => {
  it('keeps every pet it answered 201 for when it is killed (SIGKILL) during a burst of creates', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl(), DATABASE_CONNECT_TIMEOUT_MS: '60000', ...QUOTA_NEVER_REACHED };
    const apiKey = runKeys(['create', '--account', 'durability'], env).stdout.trim().split('\n').at(-1)!;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const server = await startServer(env);
    const acknowledged: Created[] = [];
    const burst = await burstUntilKilled(server, 2_000, async (i) => {
      const response = await fetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `pet-${i}`, categoryId: i + 1 }),
      });
      if (response.status !== 201) return response.status;
      acknowledged.push((await response.json()) as Created);
      return true;
    });
    expect(burst).toMatchObject({ exitCode: null, refused: [] });
    expect(burst.unanswered.length, 'the kill cut the burst short').toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const restarted = await startServer(env);
    try {
      for (const pet of acknowledged) {
        const response = await fetch(`${restarted.baseUrl}/pets/${pet.id}`, { headers });
        expect(response.status, `pet ${pet.id} was acknowledged`).toBe(200);
        expect(await response.json()).toEqual(pet);
      }
    } finally {
      await restarted.stop();
    }
  });

  it('keeps every update and delete it answered for when it is killed (SIGKILL) during a burst of them', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl(), DATABASE_CONNECT_TIMEOUT_MS: '60000', ...QUOTA_NEVER_REACHED };
    const apiKey = runKeys(['create', '--account', 'durability'], env).stdout.trim().split('\n').at(-1)!;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/merge-patch+json' };
    const BURST = 400;
    const server = await startServer(env);
    const creates = Array.from({ length: BURST }, (_, i) =>
      fetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `pet-${i}`, categoryId: 1 }),
      }),
    );
    expect((await Promise.all(creates)).map((response) => response.status)).toEqual(Array(BURST).fill(201));
    const updated: Created[] = [];
    const deleted: number[] = [];
    const burst = await burstUntilKilled(server, BURST, async (i) => {
      const id = i + 1;
      const response =
        i % 2 === 0
          ? await fetch(`${server.baseUrl}/pets/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ name: `updated-${i}` }) })
          : await fetch(`${server.baseUrl}/pets/${id}`, { method: 'DELETE', headers });
      if (response.status === 200) updated.push((await response.json()) as Created);
      else if (response.status === 204) deleted.push(id);
      else return response.status;
      return true;
    });
    expect(burst).toMatchObject({ exitCode: null, refused: [] });
    expect(burst.unanswered.length, 'the kill cut the burst short').toBeGreaterThan(0);
    expect(updated.length + deleted.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const restarted = await startServer(env);
    try {
      for (const pet of updated) {
        const response = await fetch(`${restarted.baseUrl}/pets/${pet.id}`, { headers });
        expect(await response.json(), `the update of pet ${pet.id} was acknowledged`).toEqual(pet);
      }
      for (const id of deleted) {
        expect((await fetch(`${restarted.baseUrl}/pets/${id}`, { headers })).status, `pet ${id} was deleted`).toBe(404);
      }
    } finally {
      await restarted.stop();
    }
  });
});
