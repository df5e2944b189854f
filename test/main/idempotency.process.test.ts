import { describe, expect, it } from 'vitest';
import { allBackends } from '../support/backends.js';
import { burstUntilKilled } from '../support/crash-burst.js';
import { QUOTA_NEVER_REACHED, runKeys, startServer, type RunningServer } from '../support/processes.js';

interface Answer {
  status: number;
  replayed: boolean;
  text: string;
}

/** Raw fetch (a cut connection must reach the test as a rejection); each answer is read whole. */
async function createPet(baseUrl: string, apiKey: string, key: string, name: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': `"${key}"` },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', text: await response.text() };
}

async function listNames(baseUrl: string, apiKey: string): Promise<string[]> {
  const names: string[] = [];
  for (let url: string | undefined = `${baseUrl}/pets?limit=100`; url;) {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    names.push(...((await response.json()) as Array<{ name: string }>).map((pet) => pet.name));
    const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    url = next ? new URL(next, baseUrl).href : undefined;
  }
  return names;
}

async function setUp(backendName: string, createDatabaseUrl: () => Promise<string>) {
  const env = { DATABASE_URL: await createDatabaseUrl(), DATABASE_CONNECT_TIMEOUT_MS: '60000', ...QUOTA_NEVER_REACHED };
  const keys = runKeys(['create', '--account', `crash-${backendName}`], env);
  if (keys.status !== 0) throw new Error(`keys create failed: ${keys.stderr}`);
  return { env, apiKey: keys.stdout.trim().split('\n').at(-1)! };
}

describe.each(allBackends)('Idempotency-Key across server processes [$name]', (backend) => {
  it('makes exactly one pet per key when two processes on one database get the same key at the same moment', async () => {
    const { env, apiKey } = await setUp(backend.name, () => backend.createDatabaseUrl());
    const servers: RunningServer[] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const KEYS = 60;
      const pairs = await Promise.all(
        Array.from({ length: KEYS }, (_, i) =>
          Promise.all(servers.map((server) => createPet(server.baseUrl, apiKey, `race-${i}`, `pet-${i}`))),
        ),
      );
      for (const answers of pairs) {
        const made = answers.filter((answer) => answer.status === 201 && !answer.replayed);
        expect(made).toHaveLength(1);
        for (const other of answers.filter((answer) => answer !== made[0])) {
          // The other request met the first in flight (409) or after it (the replay, byte for byte).
          if (other.status === 201) expect(other).toEqual({ ...made[0], replayed: true });
          else expect(other.status).toBe(409);
        }
      }
      const names = await listNames(servers[0]!.baseUrl, apiKey);
      expect(names).toHaveLength(KEYS);
      expect(new Set(names).size).toBe(KEYS);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });

  it('loses and duplicates nothing when the server is killed during a burst and every unanswered create is retried with its key', async () => {
    const { env, apiKey } = await setUp(backend.name, () => backend.createDatabaseUrl());
    const first = await startServer(env);
    const burst = await burstUntilKilled(first, 2_000, async (i) => {
      const answer = await createPet(first.baseUrl, apiKey, `burst-${i}`, `pet-${i}`);
      return answer.status === 201 ? true : answer.status;
    });
    expect(burst).toMatchObject({ exitCode: null, refused: [] });
    const { unanswered, sent } = burst;
    expect(unanswered.length).toBeGreaterThan(0);

    const second = await startServer(env);
    try {
      const retried = await Promise.all(unanswered.map((i) => createPet(second.baseUrl, apiKey, `burst-${i}`, `pet-${i}`)));
      expect(retried.map((answer) => answer.status)).toEqual(retried.map(() => 201));
      const names = await listNames(second.baseUrl, apiKey);
      expect(names).toHaveLength(sent);
      expect(new Set(names).size).toBe(sent);
      // Retries of creates that had been committed before the kill were answered with their record.
      const replayed = retried.filter((answer) => answer.replayed).length;
      process.stdout.write(
        `[${backend.name}] ${unanswered.length} creates unanswered at the kill, ${replayed} of them already committed\n`,
      );
    } finally {
      await second.stop();
    }
  });
});
