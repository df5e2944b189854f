// Benchmark settings, all from the environment (docs/performance.md lists them).
// BENCH_QUICK=1 is a smoke run: seconds instead of minutes, for the test that keeps the bench working.

function number(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not ${JSON.stringify(text)}`);
  return value;
}

export function readBenchConfig() {
  const quick = process.env.BENCH_QUICK === '1';
  const backend = process.env.BENCH_DATABASE_URL ? 'postgres' : process.env.BENCH_BACKEND || 'sqlite';
  if (!['sqlite', 'postgres'].includes(backend)) throw new Error('BENCH_BACKEND must be sqlite or postgres');
  const generator = process.env.BENCH_LOAD || 'autocannon';
  if (!['autocannon', 'wrk'].includes(generator)) throw new Error('BENCH_LOAD must be autocannon or wrk');
  const server = process.env.BENCH_SERVER || 'bench';
  if (!['bench', 'npm-start'].includes(server)) throw new Error('BENCH_SERVER must be bench or npm-start');
  // `npm start` as a new user runs it: no metrics listener, no rate limit, unless asked for.
  const npmStart = server === 'npm-start';
  return {
    quick,
    backend,
    /** The load generator: autocannon (bench/load.mjs) or wrk (bench/load-wrk.mjs). */
    generator,
    /** An existing PostgreSQL server (a role that may create databases); else a throwaway one. */
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    duration: number('BENCH_DURATION', quick ? 1 : 10),
    warmup: number('BENCH_WARMUP', quick ? 0 : 3),
    rounds: number('BENCH_ROUNDS', quick ? 1 : 3),
    pets: number('BENCH_PETS', quick ? 500 : 10_000),
    connections: number('BENCH_CONNECTIONS', quick ? 10 : 50),
    startupRuns: number('BENCH_STARTUP_RUNS', quick ? 1 : 5),
    /** The project server as deployed: its metrics listener on (BENCH_METRICS=0 turns it off, to compare). */
    metrics: process.env.BENCH_METRICS ? process.env.BENCH_METRICS !== '0' : !npmStart,
    /**
     * RATE_LIMIT_PER_MINUTE for the project server: the limiter counts every request as deployed,
     * with a quota no run reaches (the default 600 would turn the run into one of 429s); 0 turns it off.
     */
    rateLimitPerMinute: number('BENCH_RATE_LIMIT', npmStart ? 0 : 10_000_000),
    /**
     * How the project server is started: `bench`, `node dist/main.js` spawned by the bench; or
     * `npm-start`, through `npm start` (scripts/ensure-built.mjs, then node dist/main.js as its child).
     */
    server,
    only: process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : undefined,
    resultsDir: process.env.BENCH_RESULTS_DIR || new URL('./results/', import.meta.url).pathname,
  };
}

/**
 * The all-servers bench (bench/all-servers.mjs): issue 42's run, six servers held at once, rounds
 * added until every ratio's spread is within BENCH_SPREAD or BENCH_MAX_ROUNDS ran.
 */
export function readAllServersConfig() {
  const quick = process.env.BENCH_QUICK === '1';
  const confidence = number('BENCH_CONFIDENCE', 0.9);
  if (confidence <= 0 || confidence >= 1) throw new Error('BENCH_CONFIDENCE must be between 0 and 1');
  const minRounds = number('BENCH_MIN_ROUNDS', quick ? 1 : 5);
  return {
    pets: number('BENCH_PETS', quick ? 1000 : 10_000),
    warmup: number('BENCH_WARMUP', quick ? 1 : 2),
    duration: number('BENCH_DURATION', quick ? 1 : 5),
    connections: number('BENCH_CONNECTIONS', 50),
    minRounds,
    maxRounds: Math.max(minRounds, number('BENCH_MAX_ROUNDS', quick ? 1 : 20)),
    /** The largest spread accepted, as a fraction of the ratio: 0.1 is ±10 %. */
    tolerance: number('BENCH_SPREAD', 0.1),
    /** How sure the bounds of each median are (bench/spread.mjs). */
    confidence,
    resultsDir: process.env.BENCH_RESULTS_DIR || new URL('./results/', import.meta.url).pathname,
  };
}
