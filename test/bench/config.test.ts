import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { readBenchConfig } from '../../bench/config.mjs';

interface BenchConfig {
  server: string;
  metrics: boolean;
  rateLimitPerMinute: number;
}

const read = () => (readBenchConfig as () => BenchConfig)();

describe("the benchmark's settings", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('starts the project server as the bench does by default, as deployed: metrics on, the limiter counting', () => {
    vi.stubEnv('BENCH_SERVER', '');
    vi.stubEnv('BENCH_METRICS', '');
    vi.stubEnv('BENCH_RATE_LIMIT', '');
    expect(read()).toMatchObject({ server: 'bench', metrics: true, rateLimitPerMinute: 10_000_000 });
  });

  it('BENCH_SERVER=npm-start: as a new user runs npm start, without the metrics listener or a rate limit', () => {
    vi.stubEnv('BENCH_SERVER', 'npm-start');
    vi.stubEnv('BENCH_METRICS', '');
    vi.stubEnv('BENCH_RATE_LIMIT', '');
    expect(read()).toMatchObject({ server: 'npm-start', metrics: false, rateLimitPerMinute: 0 });
  });

  it('lets BENCH_METRICS and BENCH_RATE_LIMIT override either way of starting', () => {
    vi.stubEnv('BENCH_SERVER', 'npm-start');
    vi.stubEnv('BENCH_METRICS', '1');
    vi.stubEnv('BENCH_RATE_LIMIT', '600');
    expect(read()).toMatchObject({ server: 'npm-start', metrics: true, rateLimitPerMinute: 600 });
  });

  it('refuses a way of starting it does not know', () => {
    vi.stubEnv('BENCH_SERVER', 'docker');
    expect(read).toThrow('BENCH_SERVER must be bench or npm-start');
  });
});
