import { curlCommand, KEY_VARIABLE } from './curl.js';
import type { CheckResult, RunResult } from './runner.js';
import { shellQuote } from './curl.js';

/** One line per check as it finishes. */
export function resultLine(result: CheckResult): string {
  const mark = result.status === 'passed' ? '✓' : result.status === 'failed' ? '✗' : '-';
  const numbers =
    result.status === 'skipped' ? (result.note ?? '') : `${result.runs} cases, ${result.requests} requests, ${result.seconds.toFixed(1)} s`;
  const note = result.status === 'passed' && result.note ? `, ${result.note}` : '';
  return `${mark} ${result.name} (${numbers}${note})`;
}

/** The command that runs one failing case again: the same seed, the check, fast-check's path. */
export function replayCommand(run: Pick<RunResult, 'baseUrl' | 'seed'>, result: CheckResult): string | undefined {
  if (!result.failure?.path) return undefined;
  return `npm run contract-test -- --base-url ${shellQuote(run.baseUrl)} --seed ${run.seed} --check ${shellQuote(result.name)} --path ${shellQuote(result.failure.path)}`;
}

/** A failure in full: what is wrong, the minimal case as curl commands, how to replay it. */
export function failureReport(run: Pick<RunResult, 'baseUrl' | 'seed'>, result: CheckResult): string {
  const failure = result.failure!;
  const origin = new URL(run.baseUrl).origin;
  const lines = [`✗ ${result.name}`];
  if (result.runs) lines.push(`  failed at case ${result.runs}, shrunk ${failure.shrinks} times to:`);
  for (const problem of failure.problems) lines.push(...problem.split('\n').map((line) => `  ${line}`));
  if (failure.steps.length) {
    lines.push(`  Reproduce (${failure.steps.length > 1 ? 'in this order; ' : ''}the key from $${KEY_VARIABLE}):`);
    for (const { request, response } of failure.steps) {
      lines.push(`    ${curlCommand(origin, request)}`);
      if (response) lines.push(`      → ${response.status}`);
    }
  }
  const replay = replayCommand(run, result);
  if (replay) lines.push('  Replay:', `    ${replay}`);
  return lines.join('\n');
}

/** The end of a run: every failure in full, then the totals. */
export function summary(run: RunResult): string {
  const failed = run.results.filter(({ status }) => status === 'failed');
  const skipped = run.results.filter(({ status }) => status === 'skipped');
  const parts = failed.map((result) => failureReport(run, result));
  parts.push(
    `${run.results.length} checks: ${run.results.length - failed.length - skipped.length} passed, ${failed.length} failed, ${skipped.length} skipped; ` +
      `${run.requests} requests in ${run.seconds.toFixed(1)} s; seed ${run.seed}`,
  );
  return parts.join('\n\n');
}
