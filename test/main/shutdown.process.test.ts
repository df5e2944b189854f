import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { contractFetch, QUOTA_NEVER_REACHED, runKeys, startServer, tempDatabaseUrl } from '../support/processes.js';
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

describe('the built server shutting down under load', () => {
  it('exits within the drain plus a second of SIGTERM with half a request head, answering every complete request', async () => {
    const drainMs = 1000;
    const { server, auth, origin } = await serverWithKey(tempDatabaseUrl(), {
      SHUTDOWN_DRAIN_MS: String(drainMs),
      SHUTDOWN_TIMEOUT_MS: '20000',
      ...QUOTA_NEVER_REACHED,
    });
    // A client that keeps its side open when the server ends its own, as one stuck sending does.
    const halfHeaders = connect({ port: Number(new URL(origin).port), host: '127.0.0.1', allowHalfOpen: true });
    halfHeaders.on('error', () => {});
    let told = '';
    halfHeaders.on('data', (chunk: Buffer) => (told += chunk.toString('latin1')));
    // The server's side ending: this client would keep its own open.
    const halfEnded = new Promise((resolve) => halfHeaders.once('end', resolve));
    halfHeaders.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    // Clients that send request after request until the server has gone (fetch fails).
    const statuses: number[] = [];
    let loaded!: () => void;
    const underLoad = new Promise<void>((resolve) => (loaded = resolve));
    const clients = Array.from({ length: 8 }, async () => {
      for (;;) {
        const res = await fetch(`${server.baseUrl}/pets`, { headers: auth }).catch(() => undefined);
        if (!res) return;
        await res.arrayBuffer();
        if (statuses.push(res.status) === 100) loaded();
      }
    });
    await underLoad;

    const signalled = performance.now();
    server.signal('SIGTERM');
    await server.waitForLine(/shutting down: draining/);
    const servedBefore = statuses.length;
    const late = await RawConnection.open(origin);
    late.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\n\r\n`);
    const answer = await late.response();
    expect([answer.status, answer.headers['connection']]).toEqual([200, 'close']);

    expect(await server.exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(drainMs + 1000);
    await Promise.all(clients);
    await halfEnded;
    halfHeaders.destroy();
    expect(told).toMatch(/^HTTP\/1\.1 503 [^]*"code":"service_unavailable"/);
    expect(statuses.length).toBeGreaterThan(servedBefore);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
