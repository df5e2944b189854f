import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Report {
  verdict: { rounds: number; settled: boolean };
  ratios: Array<{ name: string; values: number[]; median: number }>;
  servers: Array<{ load: string; server: string; requestsPerSecond: number; unexpected: number }>;
  measurements: Array<{ round: number; load: string; server: string }>;
}

/** Keeps `npm run bench:all` working end to end (wrk from Debian); its numbers are judged by people. */
describe('the all-servers bench in quick mode', () => {
  it('drives the six servers through the four loads, round by round, and writes JSON and Markdown', () => {
    const results = mkdtempSync(join(tmpdir(), 'petstore-bench-all-'));
    const run = spawnSync(process.execPath, ['bench/all-servers.mjs'], {
      // A spread of 0 is never reached by real measurements: the cap decides the rounds.
      env: {
        ...process.env,
        BENCH_QUICK: '1',
        BENCH_PETS: '300',
        BENCH_MIN_ROUNDS: '2',
        BENCH_MAX_ROUNDS: '2',
        BENCH_SPREAD: '0',
        BENCH_RESULTS_DIR: results,
      },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(results, 'all-servers.json'), 'utf8')) as Report;
    expect(report.verdict).toMatchObject({ rounds: 2, settled: false });
    const servers = ['project', 'floor', 'raw', 'rawNormal', 'fastify', 'expressValidator'];
    // Interleaved: each round runs every load on every server, the servers' order reversed the next.
    const firstLoad = (round: number) => report.measurements.filter((m) => m.round === round && m.load === 'list20').map((m) => m.server);
    expect(firstLoad(1)).toEqual(servers);
    expect(firstLoad(2)).toEqual([...servers].reverse());
    expect(new Set(report.measurements.map((m) => m.load))).toEqual(new Set(['list20', 'list100', 'get', 'create']));
    for (const ratio of report.ratios) expect(ratio.values, ratio.name).toHaveLength(2);
    // Every response had the expected status: a benchmark of 401s or 400s would measure nothing.
    for (const server of report.servers) expect(server.unexpected, `${server.server} ${server.load}`).toBe(0);
    const markdown = readFileSync(join(results, 'all-servers.md'), 'utf8');
    expect(markdown).toMatch(/\| get: project \/ floor \| \d+\.\d\d \| ±\d+\.\d %/);
    expect(markdown).toContain('Stopped at the cap of 2 rounds');
  });
});
