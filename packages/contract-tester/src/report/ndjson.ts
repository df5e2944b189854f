import type { ExchangeRecord } from '../http/http-client.js';
import type { Failure, RunResult, ScenarioResult } from '../run/runner.js';
import { failureTitle } from './report.js';

const bodyText = (bytes: Buffer | undefined) => {
  if (!bytes?.length) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { base64: bytes.toString('base64') };
};

/** One line of the NDJSON report for an exchange: the request as sent (secrets as variables) and the answer. */
export function exchangeLine(record: ExchangeRecord): string {
  const { response } = record;
  return JSON.stringify({
    type: 'exchange',
    at: record.startedAt.toISOString(),
    request: { method: record.request.method, target: record.target, headers: record.headers, body: bodyText(record.request.body) },
    ...(response
      ? {
          response: {
            status: response.status,
            headers: response.headers,
            body: bodyText(response.bytes),
            elapsedMs: Math.round(response.elapsedMs * 10) / 10,
          },
        }
      : { error: record.error }),
  });
}

export function scenarioLine(result: ScenarioResult): string {
  return JSON.stringify({ type: 'scenario', ...result });
}

export function failureLine(failure: Failure): string {
  const { steps, ...rest } = failure;
  return JSON.stringify({
    type: 'failure',
    title: failureTitle(failure),
    ...rest,
    steps: steps.map(({ request, response }) => ({ method: request.method, target: request.target, status: response?.status })),
  });
}

export function summaryLine(run: RunResult): string {
  const { scenarios: _scenarios, failures, ...rest } = run;
  return JSON.stringify({ type: 'summary', ...rest, failures: failures.length });
}
