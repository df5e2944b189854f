import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { QUOTA_NEVER_REACHED, runKeys, startServer } from '../support/processes.js';

interface Created {
  id: number;
  name: string;
  categoryId: number;
}

describe.each(backends)('acknowledged creates survive a crash [$name]', (backend) => {
  it('keeps every pet it answered 201 for when it is killed (SIGKILL) during a burst of creates', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl(), DATABASE_CONNECT_TIMEOUT_MS: '60000', ...QUOTA_NEVER_REACHED };
    const apiKey = runKeys(['create', '--account', 'durability'], env).stdout.trim().split('\n').at(-1)!;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const BURST = 400;
    const KILL_AFTER = 60;
    const server = await startServer(env);
    const acknowledged: Created[] = [];
    let killing: Promise<number | null> | undefined;
    await Promise.allSettled(
      Array.from({ length: BURST }, async (_, i) => {
        const response = await fetch(`${server.baseUrl}/pets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `pet-${i}`, categoryId: i + 1 }),
        });
        const body = (await response.json()) as Created;
        if (response.status !== 201) throw new Error(`status ${response.status}`);
        acknowledged.push(body);
        if (acknowledged.length === KILL_AFTER) killing = server.kill('SIGKILL');
      }),
    );
    expect(await killing).toBeNull();
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acknowledged.length).toBeLessThan(BURST);

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
});
