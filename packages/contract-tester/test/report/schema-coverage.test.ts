import { describe, expect, it } from 'vitest';
import { summary } from '../../src/report/report.js';
import { coverageJson, coverageShortfall, coverageTable } from '../../src/report/schema-coverage.js';
import { countOf, type SchemaCoverageReport } from '../../src/stateful/schema-coverage.js';
import { context, run } from '../support/contract-test-results.js';

const coverage: SchemaCoverageReport = {
  operations: [
    {
      operation: 'listPets',
      method: 'GET',
      path: '/pets',
      exercised: true,
      parameters: { covered: ['query.limit'], missing: ['query.cursor'] },
      bodyProperties: { covered: [], missing: [] },
      responses: { covered: ['200 application/json'], missing: [] },
    },
    {
      operation: 'createPet',
      method: 'POST',
      path: '/pets',
      exercised: false,
      parameters: { covered: [], missing: [] },
      bodyProperties: { covered: ['name'], missing: ['tag'] },
      responses: { covered: [], missing: ['201 application/json', '500'] },
    },
  ],
  totals: {
    operations: countOf(1, 2),
    parameters: countOf(1, 2),
    bodyProperties: countOf(1, 2),
    responses: countOf(1, 3),
    overall: countOf(4, 9),
  },
};

describe('the schema coverage report', () => {
  it('is a table per operation, the totals per kind and overall, then what was not covered', () => {
    expect(coverageTable(coverage).split('\n').slice(1)).toEqual([
      '  operation  exercised  parameters  body properties  responses',
      '  listPets   yes        1/2         -                1/1',
      '  createPet  no         -           1/2              0/2',
      '  total      1/2 50.0%  1/2 50.0%   1/2 50.0%        1/3 33.3%',
      '  overall: 44.4% (4 of 9)',
      '  not covered:',
      '    listPets: query.cursor',
      '    createPet: not exercised, body.tag, response 201 application/json, response 500',
    ]);
  });

  it('names what fell short of --min-coverage, and never rounds a shortfall up to the minimum', () => {
    expect(coverageShortfall(coverage, 50)).toBe(
      '✗ Schema coverage 44.4% is below --min-coverage 50%: responses 1/3 (33.3%); the table above lists what was not covered.',
    );
    const almost = { ...coverage, totals: { ...coverage.totals, overall: countOf(9999, 10000) } };
    expect(coverageShortfall(almost, 100)).toContain('Schema coverage 99.9% is below --min-coverage 100%');
  });

  it('comes before the totals line in the summary, with the shortfall when the run is below its minimum', () => {
    const text = summary({ ...run, coverage, minCoverage: 50 }, context);
    expect(text).toMatch(/\n\nSchema coverage \(.*\):\n {2}operation .*\n\n✗ Schema coverage 44\.4% is below .*\n\n3 scenarios: /s);
    expect(summary({ ...run, coverage, minCoverage: 40 }, context)).not.toContain('below --min-coverage');
    expect(summary(run, context)).not.toContain('Schema coverage');
  });

  it('is JSON for CI: the run, the minimum and whether it was met, the totals, every operation', () => {
    const parsed = JSON.parse(coverageJson({ ...run, coverage, minCoverage: 50 })) as Record<string, unknown>;
    expect(parsed).toEqual({
      baseUrl: run.baseUrl,
      spec: { title: 'Pet Store', version: '1.0.0' },
      seed: 42,
      minCoverage: 50,
      passed: false,
      totals: coverage.totals,
      operations: coverage.operations,
    });
  });
});
