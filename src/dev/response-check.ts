import type { Request, Response } from 'express';
import { ContractChecker } from 'openapi-contract-tester/checks/response-contract';
import type { Contract } from '../contract/contract.js';
import { ApiError } from '../errors/api-error.js';
import type { HandlerOutcome, OutcomeCheck } from '../http/operation-route.js';

/** What the check tells the developer, a line at a time (the terminal npm run dev runs in). */
export type Report = (line: string) => void;

const toTerminal: Report = (line) => process.stderr.write(`${line}\n`);

/** A header's value as the response will carry it. */
type HeaderValue = string | string[] | undefined;

/** The outcome as the client would receive it: status, headers (lower-cased, the response's so far included) and body. */
function observed(req: Request, res: Response, outcome: HandlerOutcome) {
  const headers: Record<string, HeaderValue> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) headers[name] = typeof value === 'number' ? String(value) : value;
  let status: number;
  let body: unknown;
  let text: string;
  if ('recorded' in outcome) {
    const { recorded } = outcome;
    status = recorded.status;
    for (const [name, value] of Object.entries(recorded.headers)) headers[name.toLowerCase()] = value;
    text = Buffer.from(recorded.body).toString('utf8');
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } else {
    status = outcome.status;
    for (const [name, value] of Object.entries(outcome.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
    body = outcome.body;
    text = body === undefined ? '' : JSON.stringify(body);
  }
  // What the server writes a body as; a documented body left out is then "empty", as it would arrive.
  headers['content-type'] = 'application/json; charset=utf-8';
  return { method: req.method, url: req.originalUrl, status, headers, body, text };
}

/**
 * npm run dev's check of every handler's answer against openapi.yaml, with the contract tester's
 * checker (the one the tests use): a status the operation does not document, a body its schema
 * refuses, a documented header that is missing or malformed. Such an answer is not sent: the
 * client gets 500, its message saying what the handler answered and what is wrong, and the
 * terminal a line naming the operation. Its schemas are compiled as their first answers come.
 */
export function responseCheck(contract: Contract, report: Report = toTerminal): OutcomeCheck {
  const checker = new ContractChecker(contract.document, { basePath: contract.basePath });
  return (req, res, outcome) => {
    const response = observed(req, res, outcome);
    let problems: string[];
    try {
      problems = checker.violations(response);
    } catch (error) {
      problems = [`the check itself failed: ${(error as Error).message}`];
    }
    if (problems.length === 0) return undefined;
    const operation = checker.route(response.method, response.url)?.id ?? `${response.method} ${req.path}`;
    // Each finding's first line; the body it quotes follows on the next, for the terminal only.
    const what = problems.map((problem) => problem.split('\n')[0]!).join('; ');
    report(`[response check] ${operation} answered ${response.status}, which openapi.yaml does not allow; sent 500 instead: ${what}`);
    for (const problem of problems) for (const line of problem.split('\n').slice(1)) report(`  ${line}`);
    return new ApiError(
      'internal_error',
      `${operation} answered ${response.status}, which openapi.yaml does not allow (npm run dev checks every answer): ${what}`,
    );
  };
}
