import { describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { mixedTable, ratiosTable, resultsName, summarise } from '../../bench/report.mjs';

const server = (byOperation?: Record<string, { p50: number; p99: number }>) => ({
  requestsPerSecond: 1000,
  p50: 1,
  p99: 2,
  ...(byOperation ? { byOperation } : {}),
});

describe("the mixed workloads' report", () => {
  it("gives each operation's latencies with and without the creates, where the load generator measured them", () => {
    const table = (mixedTable as (summary: unknown[]) => string)([
      { name: 'mix', mixed: true, project: server({ get: { p50: 2, p99: 6 }, create: { p50: 3, p99: 9 } }) },
      { name: 'mixreads', mixed: true, project: server({ get: { p50: 1, p99: 3 } }) },
    ]);
    expect(table).toContain('| project | get | 1.00 | 3.00 | 2.00 | 6.00 | 2.00 |');
    expect(table).toContain('Throughput of the mixes: project 1,000 req/s with the creates, 1,000 without.');
  });

  it('says they were not measured rather than print a table without rows (wrk)', () => {
    const table = (mixedTable as (summary: unknown[]) => string)([
      { name: 'mix', mixed: true, project: server() },
      { name: 'mixreads', mixed: true, project: server() },
    ]);
    expect(table).not.toContain('| server |');
    expect(table).toContain("Each operation's own latencies in the mixes: not measured by this load generator.");
  });
});

describe('the ratios of the targets', () => {
  const measured = (server: string, requestsPerSecond: number, p50: number, p99: number, scenario = 'get') => ({
    round: 1,
    scenario,
    server,
    result: { requestsPerSecond, p50, p99, cpuMicrosPerRequest: 1, unexpected: 0, errors: 0, timeouts: 0 },
  });

  it('puts the project against the floor, the floor against the raw server, and every p99 over its p50', () => {
    const summary = (summarise as (scenarios: unknown[], measurements: unknown[]) => unknown[])(
      [{ name: 'get', label: 'getPet', requests: [{ op: 'get' }] }],
      [measured('project', 900, 2, 5), measured('floor', 1000, 2, 4), measured('baseline', 2000, 1, 3)],
    );
    expect(summary[0]).toMatchObject({ ratioFloor: 0.9, floorRatio: 0.5, ratio: 0.45, tails: { project: 2.5, floor: 2, baseline: 3 } });
    expect((ratiosTable as (summary: unknown[]) => string)(summary)).toContain('| getPet | 0.90 | 0.50 | 0.45 |  | 2.5 | 2.0 | 3.0 |  |');
  });

  it('puts the floor of a scenario that writes against the raw server at NORMAL, as the floor runs', () => {
    const summary = (summarise as (scenarios: unknown[], measurements: unknown[]) => unknown[])(
      [{ name: 'create', label: 'createPet', requests: [{ op: 'create' }], writes: true }],
      [
        measured('project', 600, 2, 5, 'create'),
        measured('floor', 800, 2, 4, 'create'),
        measured('baseline', 400, 1, 3, 'create'),
        measured('normal', 1000, 1, 2, 'create'),
      ],
    );
    expect(summary[0]).toMatchObject({ ratioFloor: 0.75, floorRatio: 0.8, ratio: 1.5, ratioNormal: 0.6 });
  });
});

describe("the results' file names", () => {
  const name = resultsName as (config: object) => string;

  it('tell the load generator and how the server was started apart, so that no kind of run overwrites another', () => {
    const config = { backend: 'sqlite', pets: 10000, generator: 'autocannon', server: 'bench' };
    const names = [
      name(config),
      name({ ...config, generator: 'wrk' }),
      name({ ...config, server: 'npm-start' }),
      name({ ...config, generator: 'wrk', server: 'npm-start' }),
    ];
    expect(names).toEqual(['sqlite-10000', 'sqlite-10000-wrk', 'sqlite-10000-npm-start', 'sqlite-10000-wrk-npm-start']);
  });
});
