import type { AddressInfo } from 'node:net';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsServer } from '../../src/metrics/metrics-server.js';

describe('the metrics listener', () => {
  const registry = new Registry();
  new Counter({ name: 'things_total', help: 'Things.', registers: [registry] }).inc(3);
  const server = createMetricsServer(registry);
  let origin: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the registry in the Prometheus text format at /metrics', async () => {
    const res = await fetch(`${origin}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('things_total 3');
  });

  it('answers HEAD without a body', async () => {
    const res = await fetch(`${origin}/metrics`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  it('serves nothing else', async () => {
    expect((await fetch(`${origin}/`)).status).toBe(404);
    expect((await fetch(`${origin}/v1/pets`)).status).toBe(404);
    const post = await fetch(`${origin}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
