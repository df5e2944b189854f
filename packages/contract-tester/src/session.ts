import { unechoedFields, unmetExpectations, type Expectation } from './expectations.js';
import { NoResponseError, type ApiClient, type HttpResponse } from './http-client.js';
import type { Exchange } from './links.js';
import type { TestRequest } from './requests.js';
import type { ContractChecker } from './response-contract.js';
import type { ApiModel } from './spec-model.js';

/** One request of a failing case and the answer it got (none when the server did not answer). */
export interface Step {
  request: TestRequest;
  response?: HttpResponse;
}

/** A case the deployment failed: what is wrong, and every request of the case up to the failing one. */
export class CaseFailure extends Error {
  constructor(
    readonly problems: string[],
    readonly steps: Step[],
  ) {
    super(problems.join('\n'));
    this.name = 'CaseFailure';
  }
}

/** Something a create answered: kept so the listing can be checked for it at the end. */
export interface Created {
  operationId: string;
  request: TestRequest;
  body: unknown;
}

/** The deployment under test, the spec it is held to, and what the run has created there. */
export class Session {
  readonly created: Created[] = [];

  constructor(
    readonly api: ApiModel,
    readonly client: ApiClient,
    readonly checker: ContractChecker,
    /** Operations whose successes are recorded in `created` (the creates the listing audit checks). */
    private readonly recordedCreates: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Sends a case's request and holds the answer to the contract and to what the case expects.
   * Throws a CaseFailure (with `earlier` steps in front) on any problem; returns the exchange.
   */
  async send(expectation: Expectation, earlier: Step[] = [], why?: string): Promise<Exchange> {
    const { request, operation } = expectation;
    let response: HttpResponse;
    try {
      response = await this.client.send(request);
    } catch (error) {
      if (error instanceof NoResponseError) throw new CaseFailure(withWhy([error.message], why), [...earlier, { request }]);
      throw error;
    }
    const problems = [
      ...this.checker.violations({
        method: request.method,
        url: request.target,
        status: response.status,
        headers: response.headers,
        body: response.body,
        text: response.text,
      }),
      ...unmetExpectations(expectation, response),
    ];
    const valid = expectation.kind === 'positive' || expectation.kind === 'link';
    if (valid) problems.push(...unechoedFields(operation, request, response));
    if (problems.length) throw new CaseFailure(withWhy(problems, why), [...earlier, { request, response }]);
    if (valid && this.recordedCreates.has(operation.id) && response.status >= 200 && response.status < 300) {
      this.created.push({ operationId: operation.id, request, body: response.body });
    }
    return { operation, request, response };
  }
}

function withWhy(problems: string[], why: string | undefined): string[] {
  return why ? [`the request: ${why}`, ...problems] : problems;
}
