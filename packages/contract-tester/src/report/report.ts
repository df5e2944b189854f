import type { Credentials } from '../http/credentials.js';
import type { RateLimitStats } from '../http/http-client.js';
import { belowMinCoverage, type Failure, type RunResult, type ScenarioResult } from '../run/runner.js';
import { curlCommand, secretVariables, shellQuote } from './curl.js';
import { coverageShortfall, coverageTable } from './schema-coverage.js';

/** What a report needs besides the run: the credentials (to name their variables) and how the run was started. */
export interface ReportContext {
  credentials: Credentials;
  /** The command that started the run, without its seed and replay options (secrets as variables). */
  command: string;
}

/** One line per scenario as it finishes. */
export function resultLine(result: ScenarioResult): string {
  const mark = result.status === 'passed' ? '✓' : result.status === 'failed' ? '✗' : '-';
  if (result.status === 'skipped') return `${mark} ${result.name} (${result.note ?? 'skipped'})`;
  const found = result.failures ? `, ${result.failures} failure${result.failures > 1 ? 's' : ''}` : '';
  const note = result.note ? `, ${result.note}` : '';
  return `${mark} ${result.name} (${result.runs} cases, ${result.requests} requests, ${result.seconds.toFixed(1)} s${found}${note})`;
}

/** The command that runs one failing case again: the run's command, its seed, the scenario, the case's path. */
export function replayCommand(run: Pick<RunResult, 'seed'>, failure: Failure, command: string): string | undefined {
  if (failure.path === undefined) return undefined;
  return `${command} --seed ${run.seed} --replay ${shellQuote(failure.scenario)} --replay-path ${shellQuote(failure.path)}`;
}

/** How a failure is headed: its check, operation and status, the distinct failure it is. */
export function failureTitle(failure: Pick<Failure, 'check' | 'label' | 'status'>): string {
  return `${failure.check} · ${failure.label} · ${failure.status ?? 'no answer'}`;
}

/** A failure in full: what is wrong, the minimal case as curl commands, how to replay it. */
export function failureReport(run: Pick<RunResult, 'baseUrl' | 'seed'>, failure: Failure, context: ReportContext): string {
  const origin = new URL(run.baseUrl).origin;
  const lines = [`✗ ${failureTitle(failure)}`];
  lines.push(`  found by ${failure.scenario}${failure.shrinks ? `, shrunk ${failure.shrinks} times` : ''}:`);
  if (failure.why) lines.push(`  the request: ${failure.why}`);
  lines.push(...failure.message.split('\n').map((line) => `  ${line}`));
  if (failure.steps.length) {
    const variables = [...new Set(failure.steps.flatMap(({ request }) => secretVariables(request, context.credentials)))];
    const order = failure.steps.length > 1 ? 'in this order' : '';
    const secrets = variables.length ? `secrets from ${variables.map((name) => `$${name}`).join(', ')}` : '';
    lines.push(`  Reproduce${order || secrets ? ` (${[order, secrets].filter(Boolean).join('; ')})` : ''}:`);
    for (const { request, response } of failure.steps) {
      lines.push(`    ${curlCommand(origin, request, context.credentials)}`);
      lines.push(`      → ${response ? response.status : 'no answer'}`);
    }
  }
  const replay = replayCommand(run, failure, context.command);
  if (replay) lines.push('  Replay:', `    ${replay}`);
  return lines.join('\n');
}

/** What the deployment's rate limit cost: the 429s waited out, and those answered as they were, not judged. */
function rateLimitNote({ waits, waitedMs, unresolved }: RateLimitStats): string {
  const lines = [
    `! Rate limited: ${waits} answer${waits === 1 ? '' : 's'} 429 waited out (${(waitedMs / 1000).toFixed(1)} s, as their Retry-After asked).`,
  ];
  if (unresolved)
    lines.push(
      `  ${unresolved} more 429${unresolved === 1 ? '' : 's'} not waited out (no Retry-After of a minute or less, five in a row, or past --max-time): not held against the API, and their cases not judged.`,
    );
  return lines.join('\n');
}

/** The end of a run: every failure in full, what was not tested and why, the schema coverage, then the totals. */
export function summary(run: RunResult, context: ReportContext): string {
  const parts = run.failures.map((failure) => failureReport(run, failure, context));
  if (run.warnings.length) parts.push(['Warnings about the spec:', ...run.warnings.map((warning) => `  - ${warning}`)].join('\n'));
  if (run.skipped.length)
    parts.push(['Operations not tested:', ...run.skipped.map(({ operation, reason }) => `  - ${operation}: ${reason}`)].join('\n'));
  if (run.unauthenticated.length) {
    const mark = run.skipUnauthenticated ? '!' : '✗';
    parts.push(
      [
        `${mark} No credentials: ${run.unauthenticated.join(', ')} ${run.unauthenticated.length === 1 ? 'needs' : 'need'} credentials the tester was not given, and ${run.unauthenticated.length === 1 ? 'was' : 'were'} not tested.`,
        `  Give them (--security NAME=VALUE, --auth, --api-key or -H)${run.skipUnauthenticated ? '' : ', or pass --skip-unauthenticated to leave such operations out without failing the run'}.`,
      ].join('\n'),
    );
  }
  if (run.notExercised.length) {
    const mark = run.failOnNotExercised ? '✗' : '!';
    parts.push(
      [
        `${mark} Not exercised: no valid request got a success (2xx) from ${run.notExercised.join(', ')}.`,
        `  Their answers were checked, but what they do on success was not; give links, examples or credentials that reach it${run.failOnNotExercised ? '' : ' (--fail-on-not-exercised makes this a failure)'}.`,
      ].join('\n'),
    );
  }
  if (run.rateLimit) parts.push(rateLimitNote(run.rateLimit));
  if (run.coverage) parts.push(coverageTable(run.coverage));
  if (run.coverage && belowMinCoverage(run)) parts.push(coverageShortfall(run.coverage, run.minCoverage!));
  const count = (status: string) => run.scenarios.filter((result) => result.status === status).length;
  parts.push(
    `${run.scenarios.length} scenarios: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped; ` +
      `${run.failures.length} failure${run.failures.length === 1 ? '' : 's'}; ${run.requests} requests in ${run.seconds.toFixed(1)} s; seed ${run.seed}`,
  );
  return parts.join('\n\n');
}
