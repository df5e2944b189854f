import { describe, expect, it } from 'vitest';
import { allBackends } from '../support/backends.js';
import { startServer } from '../support/processes.js';

const PROCESSES = 4;
const ROUNDS = 3;

describe.each(allBackends)('several servers starting together on an empty store [$name]', (backend) => {
  it(`create and print exactly one admin key (${ROUNDS} rounds of ${PROCESSES} processes)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const env = { DATABASE_URL: await backend.createDatabaseUrl() };
      const servers = await Promise.all(Array.from({ length: PROCESSES }, () => startServer(env)));
      const codes = await Promise.all(servers.map((server) => server.stop()));
      expect(codes).toEqual(Array.from({ length: PROCESSES }, () => 0));
      const printed = servers.flatMap((server) => server.output).filter((line) => /^\s+psk_[A-Za-z0-9_-]{43}$/.test(line));
      expect(printed, `round ${round + 1}`).toHaveLength(1);
    }
  }, 120_000);
});
