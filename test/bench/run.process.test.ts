import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface ServerSummary {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  unexpected: number;
}

/** Keeps `npm run bench` working end to end; its numbers are judged by people, never by tests. */
describe('the benchmark in quick mode', () => {
  it('drives the project, both baselines and the floor through every scenario and writes JSON, Markdown and SVG', () => {
    const results = mkdtempSync(join(tmpdir(), 'petstore-bench-results-'));
    const run = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'bench/run.mjs'], {
      env: { ...process.env, BENCH_QUICK: '1', BENCH_DURATION: '1', BENCH_PETS: '300', BENCH_RESULTS_DIR: results },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(results, 'sqlite-300.json'), 'utf8')) as {
      summary: Array<{
        name: string;
        project: ServerSummary;
        baseline: ServerSummary;
        normal?: ServerSummary;
        floor?: ServerSummary;
        ratio: number;
      }>;
      startup: { healthz: number; firstApiRequest: number };
      config: { metrics: boolean; rateLimitPerMinute: number };
      rss: number[];
      peakRss?: number[];
    };
    expect(report.summary.map((s) => s.name)).toEqual([
      'list20',
      'list100',
      'list100rare',
      'get',
      'create',
      'update',
      'delete',
      'mix',
      'mixreads',
    ]);
    // The NORMAL baseline runs only what writes, where durability makes a difference; the floor of
    // the design (Express and the validator alone) what it has routes for: the reads and createPet.
    expect(report.summary.filter((s) => s.normal).map((s) => s.name)).toEqual(['create', 'update', 'delete', 'mix']);
    expect(report.summary.filter((s) => s.floor).map((s) => s.name)).toEqual([
      'list20',
      'list100',
      'list100rare',
      'get',
      'create',
      'mix',
      'mixreads',
    ]);
    // A run this short on a busy machine may see no write finish (each createPet waits for an fsync),
    // so throughput is required of the run as a whole, not of every scenario.
    const servers = report.summary.flatMap(({ project, baseline, normal, floor }) => [
      project,
      baseline,
      ...(normal ? [normal] : []),
      ...(floor ? [floor] : []),
    ]);
    expect(servers.reduce((sum, server) => sum + server.requestsPerSecond, 0)).toBeGreaterThan(0);
    for (const server of servers) {
      if (server.p50 !== undefined) expect(server.p99).toBeGreaterThanOrEqual(server.p50);
      // Every response had the expected status: a benchmark of 401s or 400s would measure nothing.
      expect(server.unexpected).toBe(0);
    }
    expect(report.startup.firstApiRequest).toBeGreaterThan(0);
    // Measured as deployed: metrics on, the rate limiter counting (under a quota the run never reaches).
    expect(report.config).toMatchObject({ metrics: true, rateLimitPerMinute: 10_000_000 });
    // One reading per round; the peak over the round is never below the reading at its end.
    expect(report.rss).toHaveLength(1);
    expect(report.peakRss?.[0]).toBeGreaterThanOrEqual(report.rss[0]!);
    expect(readFileSync(join(results, 'sqlite-300.md'), 'utf8')).toContain('p99 with ÷ p99 without');
    expect(readFileSync(join(results, 'sqlite-300.md'), 'utf8')).toMatch(/^\| delete \| project \| delete \| /m);
    expect(readFileSync(join(results, 'sqlite-300.svg'), 'utf8')).toMatch(/^<svg /);
  }, 120_000);

  it('BENCH_SERVER=npm-start runs the project through npm start, as a new user would, and reports the ratios of the targets', () => {
    const results = mkdtempSync(join(tmpdir(), 'petstore-bench-results-'));
    const run = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'bench/run.mjs'], {
      env: {
        ...process.env,
        BENCH_QUICK: '1',
        BENCH_DURATION: '1',
        BENCH_PETS: '300',
        BENCH_ONLY: 'get',
        BENCH_STARTUP_RUNS: '0',
        BENCH_SERVER: 'npm-start',
        BENCH_RESULTS_DIR: results,
      },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(results, 'sqlite-300-npm-start.json'), 'utf8')) as {
      summary: Array<{ name: string; project: ServerSummary; ratioFloor: number; floorRatio: number; tails: { project: number } }>;
      config: { server: string; metrics: boolean; rateLimitPerMinute: number };
    };
    expect(report.config).toMatchObject({ server: 'npm-start', metrics: false, rateLimitPerMinute: 0 });
    const [get] = report.summary;
    expect(get?.project.unexpected).toBe(0);
    expect(get?.ratioFloor).toBeGreaterThan(0);
    expect(get?.floorRatio).toBeGreaterThan(0);
    expect(get?.tails.project).toBeGreaterThanOrEqual(1);
    const markdown = readFileSync(join(results, 'sqlite-300-npm-start.md'), 'utf8');
    expect(markdown).toContain('started with `npm start`');
    expect(markdown).toMatch(/^\| getPet \| [\d.]+ \| [\d.]+ \| /m);
  }, 120_000);
});
