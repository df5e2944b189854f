import type { RunResult } from '../run/runner.js';
import { COVERAGE_KINDS, type CoverageCount, type CoverageKind, type SchemaCoverageReport } from '../stateful/schema-coverage.js';

const KIND_NAMES: Record<CoverageKind, string> = {
  operations: 'operations',
  parameters: 'parameters',
  bodyProperties: 'body properties',
  responses: 'responses',
};

const percent = (count: CoverageCount) => `${(Math.floor(count.percent * 10) / 10).toFixed(1)}%`;
const fraction = ({ covered, total }: { covered: number; total: number }) => (total ? `${covered}/${total}` : '-');

/** Rows of text in columns, each as wide as its widest cell. */
function columns(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, index) => Math.max(...rows.map((row) => row[index]!.length)));
  return rows.map((row) =>
    row
      .map((cell, index) => cell.padEnd(widths[index]!))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The schema coverage as a table: per operation whether it was exercised and how many of its
 * parameters, body properties and documented responses the run covered, the totals per kind and
 * overall, then what was not covered, operation by operation.
 */
export function coverageTable(report: SchemaCoverageReport): string {
  const rows = [['operation', 'exercised', 'parameters', 'body properties', 'responses']];
  for (const row of report.operations) {
    rows.push([
      row.operation,
      row.exercised ? 'yes' : 'no',
      fraction({ covered: row.parameters.covered.length, total: row.parameters.covered.length + row.parameters.missing.length }),
      fraction({
        covered: row.bodyProperties.covered.length,
        total: row.bodyProperties.covered.length + row.bodyProperties.missing.length,
      }),
      fraction({ covered: row.responses.covered.length, total: row.responses.covered.length + row.responses.missing.length }),
    ]);
  }
  const { totals } = report;
  rows.push(['total', ...COVERAGE_KINDS.map((kind) => (totals[kind].total ? `${fraction(totals[kind])} ${percent(totals[kind])}` : '-'))]);
  const lines = [
    'Schema coverage (an operation exercised; a parameter sent with a value; a body property present in a body sent; a documented response, by status and content type, received):',
    ...columns(rows).map((line) => `  ${line}`),
    `  overall: ${percent(totals.overall)} (${totals.overall.covered} of ${totals.overall.total})`,
  ];
  const missing = report.operations.flatMap((row) => {
    const items = [
      ...(row.exercised ? [] : ['not exercised']),
      ...row.parameters.missing,
      ...row.bodyProperties.missing.map((name) => `body.${name}`),
      ...row.responses.missing.map((response) => `response ${response}`),
    ];
    return items.length ? [`    ${row.operation}: ${items.join(', ')}`] : [];
  });
  if (missing.length) lines.push('  not covered:', ...missing);
  return lines.join('\n');
}

/** Why a run's coverage fails it: the overall figure against the minimum, and each kind below it. */
export function coverageShortfall(report: SchemaCoverageReport, minimum: number): string {
  const short = COVERAGE_KINDS.filter((kind) => report.totals[kind].total && report.totals[kind].percent < minimum).map(
    (kind) => `${KIND_NAMES[kind]} ${fraction(report.totals[kind])} (${percent(report.totals[kind])})`,
  );
  return (
    `✗ Schema coverage ${percent(report.totals.overall)} is below --min-coverage ${minimum}%` +
    (short.length ? `: ${short.join(', ')}` : '') +
    '; the table above lists what was not covered.'
  );
}

/** The JSON coverage report (--coverage-report): the run, the minimum asked for, and the coverage. */
export function coverageJson(run: RunResult): string {
  const { coverage, minCoverage } = run;
  return `${JSON.stringify(
    {
      baseUrl: run.baseUrl,
      spec: { title: run.specTitle, version: run.specVersion },
      seed: run.seed,
      ...(minCoverage !== undefined ? { minCoverage, passed: coverage!.totals.overall.percent >= minCoverage } : {}),
      totals: coverage!.totals,
      operations: coverage!.operations,
    },
    null,
    2,
  )}\n`;
}
