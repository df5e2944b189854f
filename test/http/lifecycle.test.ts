import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../../src/http/lifecycle.js';
import { backends } from '../support/backends.js';
import { RawConnection } from '../support/raw-http.js';
import { createTestApi } from '../support/test-app.js';

function get(path: string, t: { auth: { Authorization: string } }): string {
  return `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\n\r\n`;
}

describe.each(backends)('shutting down [$name]', (backend) => {
  it('drains: readiness fails at once, requests are still served, each closing its connection', async () => {
    const lifecycle = new Lifecycle();
    const t = await createTestApi({ backend, lifecycle });
    await t.api.get('/readyz').expect(200);
    const shutdown = lifecycle.shutdown(t.listening, 60_000);
    expect(lifecycle.ready).toBe(false);
    const ready = await t.api.get('/readyz').expect(503);
    expect(ready.body).toMatchObject({ code: 'service_unavailable', status: 503 });
    const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(res.headers['connection']).toBe('close');
    lifecycle.abort();
    await shutdown;
  });

  it('then answers what it has read, tells half-sent requests 503, closes idle connections, and finishes', async () => {
    const lifecycle = new Lifecycle();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const t = await createTestApi({
      backend,
      lifecycle,
      handlers: {
        getPet: async () => {
          started();
          await released;
          return { status: 200, body: { id: 1, name: 'Rex', categoryId: 1 }, headers: { ETag: '"1-1"' } };
        },
      },
    });

    const idle = await RawConnection.open(t.origin);
    idle.write(get('/v1/pets', t));
    expect((await idle.response()).status).toBe(200);
    const silent = await RawConnection.open(t.origin);
    const halfHeaders = await RawConnection.open(t.origin);
    halfHeaders.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    const halfBody = await RawConnection.open(t.origin);
    halfBody.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nX-Request-Id: half-body\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"na`,
    );
    const inFlight = await RawConnection.open(t.origin);
    inFlight.write(get('/v1/pets/1', t));
    await handlerStarted;

    const shutdown = lifecycle.shutdown(t.listening, 0);
    await idle.closed;
    await silent.closed;
    const ids: string[] = [];
    for (const half of [halfHeaders, halfBody]) {
      const res = await half.response();
      expect(res.body).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(res.headers['retry-after']).toBe('5');
      ids.push(res.headers['x-request-id']!);
      await half.closed;
    }
    // The request the app had begun keeps its id; the one whose headers never came gets one of its own.
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe('half-body');
    // No new connections once closing.
    await expect(RawConnection.open(t.origin)).rejects.toThrow(/ECONNREFUSED/);

    release();
    const answered = await inFlight.response();
    expect(answered.status).toBe(200);
    await inFlight.closed;
    await shutdown;
  });

  it('while draining, carries out nothing pipelined after a request whose answer closes the connection', async () => {
    const lifecycle = new Lifecycle();
    const t = await createTestApi({ backend, lifecycle });
    const shutdown = lifecycle.shutdown(t.listening, 60_000);
    const connection = await RawConnection.open(t.origin);
    const body = JSON.stringify({ name: 'Rex', categoryId: 3 });
    connection.write(
      get('/v1/pets', t) +
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const res = await connection.response();
    expect([res.status, res.headers['connection']]).toEqual([200, 'close']);
    await connection.closed;
    expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
    lifecycle.abort();
    await shutdown;
  });

  it('closes everything at once on abort (the deadline)', async () => {
    const lifecycle = new Lifecycle();
    const t = await createTestApi({ backend, lifecycle, handlers: { getPet: () => new Promise(() => {}) } });
    const stuck = await RawConnection.open(t.origin);
    stuck.write(get('/v1/pets/1', t));
    const shutdown = lifecycle.shutdown(t.listening, 0);
    lifecycle.abort();
    await stuck.closed;
    await shutdown;
  });
});
