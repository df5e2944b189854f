import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { contractFetch, runKeys, startServer } from '../support/processes.js';
import { RawConnection } from '../support/raw-http.js';

async function serverWithKey(databaseUrl: string, env: Record<string, string>) {
  const key = runKeys(['create', '--account', 'shutdown'], { DATABASE_URL: databaseUrl }).stdout.trim().split('\n').at(-1)!;
  const server = await startServer({ DATABASE_URL: databaseUrl, ...env });
  return { server, auth: { Authorization: `Bearer ${key}` }, origin: new URL(server.baseUrl).origin };
}

describe.each(backends)('the built server shutting down [$name]', (backend) => {
  it('on SIGTERM fails /readyz at once, serves through the drain period, then exits 0', async () => {
    const { server, auth, origin } = await serverWithKey(await backend.createDatabaseUrl(), {
      SHUTDOWN_DRAIN_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '120000',
    });
    expect((await contractFetch(`${origin}/readyz`)).status).toBe(200);
    server.signal('SIGTERM');
    await server.waitForLine(/shutting down: draining/);
    expect((await contractFetch(`${origin}/readyz`)).status).toBe(503);
    const served = await contractFetch(`${server.baseUrl}/pets`, { headers: auth });
    expect(served.status).toBe(200);
    expect(served.headers.get('connection')).toBe('close');
    // A second signal ends the drain at once, as an operator in a hurry expects.
    server.signal('SIGTERM');
    expect(await server.exited).toBe(143);
  });

  it('exits 0 after the drain whatever its clients hold open, telling half-sent requests 503', async () => {
    const { server, auth, origin } = await serverWithKey(await backend.createDatabaseUrl(), {
      SHUTDOWN_DRAIN_MS: '100',
      SHUTDOWN_TIMEOUT_MS: '10000',
    });
    const silent = await RawConnection.open(origin);
    const halfHeaders = await RawConnection.open(origin);
    halfHeaders.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    const halfBody = await RawConnection.open(origin);
    halfBody.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n{"name"`,
    );
    const idle = await RawConnection.open(origin);
    idle.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\n\r\n`);
    expect((await idle.response()).status).toBe(200);

    server.signal('SIGTERM');
    expect(await server.exited).toBe(0);
    for (const half of [halfHeaders, halfBody])
      expect((await half.response()).body).toMatchObject({ code: 'service_unavailable', status: 503 });
    await Promise.all([silent.closed, idle.closed]);
    expect(server.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  });
});
