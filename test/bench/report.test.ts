import { describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { mixedTable } from '../../bench/report.mjs';

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
