import { maxResponseTime } from '../checks/case/max-response-time.js';
import { notAServerError } from '../checks/case/not-a-server-error.js';
import { stateRefusals } from '../checks/case/state-refusals.js';
import { validWritesAccepted } from '../checks/case/valid-writes-accepted.js';
import { writeEcho } from '../checks/case/write-echo.js';
import fc from 'fast-check';
import { intentOf, unechoedFields, unmetExpectations, type Expectation } from '../checks/expectations.js';
import { FORM_CHECKS, type CheckName } from '../registry/checks.js';
import type { ContractChecker, Finding } from '../checks/response-contract.js';
import type { Profile } from '../config.js';
import { validBodies, type RequestCredentials, type TestRequest } from '../generate/requests.js';
import type { RequestBody } from '../generate/bodies.js';
import { NoResponseError, type ApiClient, type HttpResponse } from '../http/http-client.js';
import type { Exchange, LinkContext } from './links.js';
import { ResourceLedger } from './resources.js';
import { SchemaCoverage } from './schema-coverage.js';
import type { ApiModel, OperationModel } from '../spec/model.js';

/** One request of a failing case and the answer it got (none when the server did not answer). */
export interface Step {
  request: TestRequest;
  response?: HttpResponse;
}

/**
 * One thing the deployment got wrong: the check that says so, the operation (or the method and
 * path, for one the spec does not have), the status it answered, and every request of the case up
 * to the one that showed it.
 */
export interface Problem {
  check: CheckName;
  label: string;
  status: number | undefined;
  message: string;
  /** What sets it apart from other failures of its check, operation and status (see Finding). */
  signature?: string;
  /** Why the case was made, in words (the rule it breaks, the link it follows). */
  why?: string;
  steps: Step[];
}

/**
 * Failures are told apart by check, operation and status, and by what was wrong where a check can
 * say (a response's body against which rule of its schema): one of each is reported, and a false
 * alarm or a known bug never hides another of the same check and operation.
 */
export function problemKey({ check, label, status, signature }: Pick<Problem, 'check' | 'label' | 'status' | 'signature'>): string {
  return `${check} · ${label} · ${status ?? 'no answer'}${signature ? ` · ${signature}` : ''}`;
}

/** A case to send: what it is, and the value its body was made from (a form's, say). */
export interface Case extends Expectation {
  why?: string;
  bodyValue?: unknown;
}

export interface Sent {
  /** The exchange, when the deployment answered. */
  exchange?: Exchange;
  problems: Problem[];
}

export interface SessionSettings {
  /** The checks whose findings count; the others are left out of the report. */
  checks: ReadonlySet<CheckName>;
  profile: Profile;
  /** max_response_time, when asked for. */
  maxResponseTimeMs?: number;
}

/** The deployment under test, the spec it is held to, and what the run has learned of its state. */
export class Session {
  /** Every resource the run created, followed through its updates and deletes (for the listing audit). */
  readonly ledger: ResourceLedger;
  /** Successes (2xx) per operation, to valid requests: what shows an operation was exercised. */
  readonly successes = new Map<string, number>();
  readonly linkContext: LinkContext;
  /** What the run's requests and answers covered of the spec. */
  readonly coverage: SchemaCoverage;

  constructor(
    readonly api: ApiModel,
    readonly client: ApiClient,
    readonly checker: ContractChecker,
    readonly settings: SessionSettings,
  ) {
    this.linkContext = { origin: client.origin, credentialsFor: (operation) => this.credentialsFor(operation) };
    this.ledger = new ResourceLedger(api, this.linkContext);
    this.coverage = new SchemaCoverage(api);
  }

  enabled(check: CheckName): boolean {
    return this.settings.checks.has(check);
  }

  /**
   * The findings that count against the API. A 429 the client could not wait out (see ApiClient)
   * is the deployment's rate limit, which HTTP allows any answer to be (RFC 6585 §4): it says
   * nothing of the request, so neither what the case expected nor an undocumented 429 is held
   * against the API; the run reports how many there were.
   */
  private judged(response: HttpResponse, findings: Finding[]): Finding[] {
    if (response.status !== 429) return findings;
    return findings.filter(({ check }) => FORM_CHECKS.has(check));
  }

  /** The credentials an operation is sent with: those the tester holds for it, or none. */
  credentialsFor(operation: OperationModel): RequestCredentials {
    const authentication = this.client.credentials.forOperation(operation);
    return { kind: 'valid', credentials: authentication.kind === 'authenticated' ? authentication.credentials : [] };
  }

  /** A valid body for a request the run makes up as it goes (a link without requestBody), the same for the same seed. */
  sampleBody(operation: OperationModel, seed: number): RequestBody | undefined {
    const bodies = validBodies(operation);
    return bodies && fc.sample(bodies, { numRuns: 1, seed })[0];
  }

  /**
   * Sends a case's request, holds the answer to the contract and to what the case expects, and
   * takes in what it did to the deployment's state. Returns the exchange and every problem found
   * by the checks that are on (with `earlier` steps in front).
   */
  async send(item: Case, earlier: Step[] = []): Promise<Sent> {
    const { request, operation, kind } = item;
    const label = kind === 'method' ? `${request.method} ${operation.path}` : operation.id;
    const problem = (finding: Finding, status: number | undefined, response?: HttpResponse): Problem => ({
      ...finding,
      label,
      status,
      ...(item.why ? { why: item.why } : {}),
      steps: [...earlier, response ? { request, response } : { request }],
    });
    let response: HttpResponse;
    try {
      response = await this.client.send(request);
    } catch (error) {
      if (!(error instanceof NoResponseError)) throw error;
      this.ledger.observe({ operation, request });
      const finding: Finding = { check: notAServerError.name, message: `${request.method} ${request.target} → ${error.message}` };
      return { problems: this.enabled(notAServerError.name) ? [problem(finding, undefined)] : [] };
    }
    const findings = this.judged(response, [
      ...this.checker.findings(
        {
          method: request.method,
          url: request.target,
          status: response.status,
          headers: response.headers,
          body: response.body,
          text: response.text,
        },
        intentOf(kind),
      ),
      ...unmetExpectations(item, response, {
        writes: this.enabled(validWritesAccepted.name),
        ...(this.enabled(stateRefusals.name) && this.settings.profile.stateRefusals
          ? { stateRefusals: this.settings.profile.stateRefusals }
          : {}),
      }),
    ]);
    const valid = kind === 'positive' || kind === 'link';
    if (valid && this.enabled(writeEcho.name)) findings.push(...unechoedFields(operation, request, response, item.bodyValue));
    const limit = this.settings.maxResponseTimeMs;
    if (limit !== undefined) {
      const slow = maxResponseTime.check({ response }, limit);
      findings.push(
        ...slow.map((message) => ({ check: maxResponseTime.name, message: `${request.method} ${request.target} → ${message}` })),
      );
    }
    const exchange: Exchange = { operation, request, response };
    this.ledger.observe(exchange);
    this.coverage.observe({ ...exchange, kind, ...(item.bodyValue !== undefined ? { bodyValue: item.bodyValue } : {}) });
    if (valid && response.status >= 200 && response.status < 300)
      this.successes.set(operation.id, (this.successes.get(operation.id) ?? 0) + 1);
    const problems = findings.filter(({ check }) => this.enabled(check)).map((finding) => problem(finding, response.status, response));
    return { exchange, problems };
  }
}
