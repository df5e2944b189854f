import { maxResponseTime as maxResponseTimeCheck } from '../checks/case/max-response-time.js';
import { notAServerError } from '../checks/case/not-a-server-error.js';
import fc from 'fast-check';
import { ALL_CHECKS, DEFAULT_CHECKS, describeCheck, isCheckName, type CheckName } from '../registry/checks.js';
import { ContractChecker } from '../checks/response-contract.js';
import { EMPTY_PROFILE, type Profile } from '../config.js';
import { DeadlineReached, setGenerationDeadline } from '../deadline.js';
import { buildRequest, positiveParts, type RequestParts } from '../generate/requests.js';
import { UnmakeableValue } from '../generate/bounded-filter.js';
import { Credentials, type CredentialOptions } from '../http/credentials.js';
import { ApiClient, NoResponseError, type ExchangeRecord, type RateLimitStats } from '../http/http-client.js';
import type { OpenApiDocument } from '../spec/openapi.js';
import { documentsSuccess, isSuccessStatus, readApiModel, SpecError, type ApiModel, type OperationModel } from '../spec/model.js';
import { PHASES, planScenarios, type Phase, type Scenario } from './scenarios.js';
import { inferLinks } from '../stateful/inferred-links.js';
import { problemKey, Session, type Problem } from '../stateful/session.js';
import type { SchemaCoverageReport } from '../stateful/schema-coverage.js';

/** Which operations to test: each list selects (any of it), each exclusion leaves out. */
export interface Filters {
  operations?: string[];
  tags?: string[];
  paths?: string[];
  methods?: string[];
  excludeOperations?: string[];
  excludeTags?: string[];
  excludePaths?: string[];
  excludeMethods?: string[];
  excludeDeprecated?: boolean;
}

export interface RunOptions {
  /** The deployment's base URL, with the base path: https://staging-api.example/v1. */
  baseUrl: string;
  /** The spec the deployment is held to. */
  document: OpenApiDocument;
  /** The request budget: at least this many requests, shared among the properties. */
  requests: number;
  seed: number;
  credentials?: CredentialOptions;
  /** A project's stricter rules (a config file); none by default. */
  profile?: Profile;
  /** Only these checks (default: the default ones and the profile's). */
  checks?: string[];
  excludeChecks?: string[];
  phases?: Phase[];
  filters?: Filters;
  /** The hard budget: planning, generation and cases stop this long after `startedAt`. */
  maxTimeSeconds?: number;
  /** When the budget began, a `performance.now()` time (default: when the run or plan starts; the CLI gives its process's start). */
  startedAt?: number;
  /** max_response_time: answers slower than this fail. */
  maxResponseTimeMs?: number;
  /** Replay one case: a scenario's name and fast-check's path (a fixed scenario's case number). */
  replay?: { scenario: string; path: string };
  /**
   * Leave out the operations the tester holds no credentials for, as the user asked; otherwise
   * each fails the run (a run that tests less than it was pointed at must not pass quietly).
   */
  skipUnauthenticated?: boolean;
  /** Fail the run when its schema coverage (overall, in percent) is below this. */
  minCoverage?: number;
  /** Called as each scenario finishes. */
  onResult?: (result: ScenarioResult) => void;
  /** Called with every request sent and its answer. */
  onExchange?: (record: ExchangeRecord) => void;
}

/** One failure as reported: the problem, shrunk, and how to replay it. */
export interface Failure extends Problem {
  scenario: string;
  phase: Phase;
  /** With the seed and the scenario, replays the case (`--replay NAME --replay-path PATH`). */
  path?: string;
  shrinks: number;
}

export interface ScenarioResult {
  name: string;
  phase: Phase;
  group: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Cases tried. */
  runs: number;
  requests: number;
  seconds: number;
  seed: number;
  /** Distinct failures it found. */
  failures: number;
  note?: string;
}

export interface RunResult {
  baseUrl: string;
  seed: number;
  specTitle: string;
  specVersion: string;
  requests: number;
  seconds: number;
  checks: CheckName[];
  scenarios: ScenarioResult[];
  failures: Failure[];
  /** Operations not tested, and why. */
  skipped: Array<{ operation: string; reason: string; credentials?: true }>;
  /** Operations not tested for want of credentials: they fail the run unless skipUnauthenticated. */
  unauthenticated: string[];
  skipUnauthenticated: boolean;
  /** Operations tested that never answered a valid request with a success. */
  notExercised: string[];
  /** Whether that fails the run (the profile's failOnNotExercised, or --fail-on-not-exercised). */
  failOnNotExercised: boolean;
  warnings: string[];
  /** What the run covered of the spec, over the operations selected (none for a replay). */
  coverage?: SchemaCoverageReport;
  /** The overall coverage the run must reach, if one was asked for. */
  minCoverage?: number;
  /** What the deployment's rate limit cost the run, when it answered any 429. */
  rateLimit?: RateLimitStats;
}

/** The run cannot start: the deployment does not answer, the credentials are refused, an option names nothing. */
export class RunError extends Error {}

/** A scenario's own seed, from the run's seed and its name, so that it replays alone as it ran among the others. */
export function checkSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (seed ^ hash) | 0;
}

/**
 * Runs per property so that they share the budget of requests by weight, a property whose cases
 * send several requests getting fewer cases; each gets at least one.
 */
export function allocateRuns(scenarios: ReadonlyArray<Pick<Scenario, 'weight' | 'requestsPerCase'>>, budget: number): number[] {
  const total = scenarios.reduce((sum, { weight }) => sum + weight, 0);
  return scenarios.map(({ weight, requestsPerCase = 1 }) => Math.max(1, Math.ceil((budget * weight) / total / requestsPerCase)));
}

/** The checks of a run: the default ones and the profile's, narrowed by --checks and --exclude-checks. */
export function selectChecks(profile: Profile, checks?: string[], excluded?: string[], maxResponseTime = false): CheckName[] {
  const unknown = [...(checks ?? []), ...(excluded ?? [])].filter((name) => !isCheckName(name));
  if (unknown.length)
    throw new RunError(
      `no check named ${unknown.join(', ')}; the checks are:\n  ${ALL_CHECKS.map((name) => `${name}: ${describeCheck(name)}`).join('\n  ')}`,
    );
  const available: CheckName[] = [...DEFAULT_CHECKS, ...profile.checks, ...(maxResponseTime ? ([maxResponseTimeCheck.name] as const) : [])];
  if (checks?.length) {
    const off = checks.filter((name) => !available.includes(name as CheckName));
    if (off.length) {
      throw new RunError(
        `${off.join(', ')}: ${off.length > 1 ? 'need' : 'needs'} turning on (a config file's checks, or --max-response-time for ${maxResponseTimeCheck.name})`,
      );
    }
  }
  return (checks?.length ? (checks as CheckName[]) : available).filter((name) => !excluded?.includes(name));
}

function matchesPath(template: string, filter: string): boolean {
  return filter.startsWith('^') ? new RegExp(filter).test(template) : template === filter;
}

/** The operations the filters select; an operationId that names none is an error (a typo would test nothing). */
export function selectOperations(api: ApiModel, filters: Filters = {}): OperationModel[] {
  const unknown = (filters.operations ?? []).filter((id) => !api.operations.some((operation) => operation.id === id));
  if (unknown.length)
    throw new RunError(`no operation ${unknown.join(', ')} in the spec; it has ${api.operations.map(({ id }) => id).join(', ')}`);
  const any = (list: string[] | undefined, test: (item: string) => boolean) => !list?.length || list.some(test);
  const none = (list: string[] | undefined, test: (item: string) => boolean) => !list?.some(test);
  const methodIs = (operation: OperationModel) => (method: string) => method.toLowerCase() === operation.method;
  return api.operations.filter(
    (operation) =>
      any(filters.operations, (id) => id === operation.id) &&
      any(filters.tags, (tag) => operation.tags.includes(tag)) &&
      any(filters.paths, (path) => matchesPath(operation.path, path)) &&
      any(filters.methods, methodIs(operation)) &&
      none(filters.excludeOperations, (id) => id === operation.id) &&
      none(filters.excludeTags, (tag) => operation.tags.includes(tag)) &&
      none(filters.excludePaths, (path) => matchesPath(operation.path, path)) &&
      none(filters.excludeMethods, methodIs(operation)) &&
      !(filters.excludeDeprecated && operation.deprecated),
  );
}

/**
 * One request the deployment must answer at all, and, for an operation the tester authenticates,
 * not with 401: before anything else, so that a wrong URL or a refused secret stops the run at once.
 */
async function preflight(session: Session, operations: OperationModel[], baseUrl: string): Promise<void> {
  const authenticated = operations.filter((operation) => session.client.credentials.forOperation(operation).kind === 'authenticated');
  const operation =
    authenticated.find(({ method }) => method === 'get') ??
    authenticated[0] ??
    operations.find(({ method }) => method === 'get') ??
    operations[0];
  if (!operation) return;
  let parts: RequestParts | undefined;
  try {
    [parts] = fc.sample(positiveParts(operation, session.api.basePath, session.credentialsFor(operation)), { numRuns: 1, seed: 1 });
  } catch {
    // An operation whose requests cannot be made (the plan says why): no preflight.
  }
  if (!parts) return;
  try {
    const response = await session.client.send(buildRequest(parts));
    if (authenticated.includes(operation) && response.status === 401) {
      throw new RunError(`${baseUrl} refuses the credentials (401 to ${operation.id}): check --security, --auth, --api-key or -H`);
    }
  } catch (error) {
    if (error instanceof NoResponseError) throw new RunError(`${baseUrl} does not answer: ${error.message}`);
    throw error;
  }
}

/** The error a scenario's property threw: a case's fresh problems, or a fault of the tester. */
class CaseFailed extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map(({ message }) => message).join('\n'));
  }
}

/** At most this many rounds of search per property: each finds one more distinct failure. */
const MAX_ROUNDS = 12;

interface ScenarioOutcome {
  runs: number;
  failures: Failure[];
}

/**
 * Runs a property until its runs are used, reporting every distinct failure (by check, operation
 * and status): when a case fails, fast-check shrinks it to a minimal case that still shows the same
 * failure; then the search goes on from the next case, with what was found already no longer
 * counting as a failure, so that one bug does not hide another.
 */
async function runProperty(
  scenario: Scenario,
  runs: number,
  seed: number,
  known: Set<string>,
  options: { path?: string; deadline?: number },
): Promise<ScenarioOutcome> {
  const failures: Failure[] = [];
  let used = 0;
  let start = options.path;
  for (let round = 0; round < MAX_ROUNDS && used < runs; round += 1) {
    let target: string | undefined;
    const predicate = async (value: unknown) => {
      const problems = await scenario.run(value);
      const fresh = problems.filter((problem) => !known.has(problemKey(problem)));
      if (!fresh.length) return;
      // Shrinking keeps to the failure first found: a smaller case must show that one.
      target ??= problemKey(fresh[0]!);
      if (fresh.some((problem) => problemKey(problem) === target)) throw new CaseFailed(fresh);
    };
    const timeLeft = options.deadline === undefined ? undefined : Math.max(1, options.deadline - performance.now());
    let details: fc.RunDetails<[unknown]>;
    try {
      details = await fc.check(fc.asyncProperty(scenario.arbitrary!, predicate), {
        seed,
        numRuns: options.path ? 1 : runs - used,
        ...(start !== undefined ? { path: start } : {}),
        ...(options.path ? { endOnFailure: true } : {}),
        ...(timeLeft !== undefined ? { interruptAfterTimeLimit: timeLeft } : {}),
      });
    } catch (error) {
      // Generation ran out of time, or gave up at this seed (a filter that rarely passes, which
      // planning's samples passed): the scenario ends where it was.
      if (error instanceof DeadlineReached || error instanceof UnmakeableValue) break;
      throw error;
    }
    used += details.numRuns;
    if (!details.failed || details.errorInstance instanceof DeadlineReached) break;
    const error = details.errorInstance;
    const path = details.counterexamplePath ?? undefined;
    if (!(error instanceof CaseFailed)) {
      // The tester's own fault: reported once, as such.
      const message = `the contract tester failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      failures.push({
        check: notAServerError.name,
        label: scenario.group,
        status: undefined,
        message,
        steps: [],
        scenario: scenario.name,
        phase: scenario.phase,
        shrinks: details.numShrinks,
        ...(path ? { path } : {}),
      });
      break;
    }
    for (const problem of error.problems) {
      const key = problemKey(problem);
      if (known.has(key)) continue;
      known.add(key);
      failures.push({ ...problem, scenario: scenario.name, phase: scenario.phase, shrinks: details.numShrinks, ...(path ? { path } : {}) });
    }
    if (options.path || !path) break;
    start = String(Number(path.split(':')[0]) + 1);
  }
  return { runs: used, failures };
}

/** Runs a fixed scenario's cases in order (or the one a replay names), each once. */
async function runFixed(scenario: Scenario, known: Set<string>, options: { path?: string; deadline?: number }): Promise<ScenarioOutcome> {
  const failures: Failure[] = [];
  const cases = scenario.cases ?? [];
  const indexes = options.path !== undefined ? [Number(options.path)] : cases.map((_, index) => index);
  let runs = 0;
  for (const index of indexes) {
    if (index < 0 || index >= cases.length || !Number.isInteger(index))
      throw new RunError(`${scenario.name} has cases 0 to ${cases.length - 1}, not ${options.path}`);
    if (options.deadline !== undefined && performance.now() > options.deadline) break;
    runs += 1;
    let problems: Problem[];
    try {
      problems = await scenario.run(cases[index]);
    } catch (error) {
      if (error instanceof DeadlineReached) break;
      throw error;
    }
    for (const problem of problems) {
      const key = problemKey(problem);
      if (known.has(key) && options.path === undefined) continue;
      known.add(key);
      failures.push({
        ...problem,
        scenario: scenario.name,
        phase: scenario.phase,
        shrinks: 0,
        ...(scenario.replayable === false ? {} : { path: String(index) }),
      });
    }
  }
  return { runs, failures };
}

/** What a run would do: the checks, the scenarios with their share of the budget, what it leaves out. */
export interface RunPlan {
  checks: CheckName[];
  phases: Phase[];
  scenarios: Array<{ name: string; phase: Phase; group: string; cases: number; fixed: boolean }>;
  skipped: Array<{ operation: string; reason: string; credentials?: true }>;
  warnings: string[];
  tested: string[];
  /** Operations the filters left out. */
  filteredOut: string[];
  /** The links the tester inferred where the spec declares none: `producer status → link`. */
  inferredLinks: string[];
}

/** Sets up a run without sending anything: the model, the checks, the session and its plan. */
function prepare(options: RunOptions, deadline: number | undefined) {
  const profile = options.profile ?? EMPTY_PROFILE;
  setGenerationDeadline(deadline);
  let api: ApiModel;
  try {
    api = readApiModel(options.document);
  } catch (error) {
    setGenerationDeadline(undefined);
    if (error instanceof SpecError) throw new RunError(`the spec cannot be tested: ${error.message}`);
    if (!(error instanceof DeadlineReached)) throw error;
    throw new RunError(`--max-time ${options.maxTimeSeconds} s was reached while reading the spec's operations, before any was planned`);
  }
  // The deployment's base path, whatever the spec's servers say (a gateway may add a prefix).
  api.basePath = new URL(options.baseUrl).pathname.replace(/\/$/, '');
  inferLinks(api);
  const checks = selectChecks(profile, options.checks, options.excludeChecks, options.maxResponseTimeMs !== undefined);
  const operations = selectOperations(api, options.filters);
  const phases = new Set<Phase>(options.phases ?? PHASES);
  const client = new ApiClient(options.baseUrl, new Credentials(options.credentials));
  const session = new Session(api, client, checkerOf(options.document, api.basePath, profile, options.maxTimeSeconds), {
    checks: new Set(checks),
    profile,
    ...(options.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: options.maxResponseTimeMs } : {}),
  });
  const plan = planScenarios(session, operations, phases);
  return { profile, api, checks, operations, phases, client, session, plan };
}

/** The response checker of a document, or the RunError that says why its schemas cannot be checked. */
function checkerOf(document: OpenApiDocument, basePath: string, profile: Profile, maxTimeSeconds?: number): ContractChecker {
  try {
    return new ContractChecker(document, { basePath, profile });
  } catch (error) {
    if (error instanceof SpecError) throw new RunError(`the spec cannot be tested: ${error.message}`);
    if (error instanceof DeadlineReached)
      throw new RunError(
        `--max-time ${maxTimeSeconds} s was reached while reading the schemas of the spec, before any operation was planned`,
      );
    throw error;
  }
}

/** The plan of a run (--dry-run): what it would send, per scenario, and what it would leave out and why. */
export function planRun(options: RunOptions): RunPlan {
  let prepared;
  try {
    prepared = prepare(options, deadlineOf(options, performance.now()));
  } finally {
    setGenerationDeadline(undefined);
  }
  const { api, checks, operations, phases, client, plan, session } = prepared;
  client.close();
  const properties = plan.scenarios.filter(({ arbitrary }) => arbitrary);
  const runs = allocateRuns(properties, options.requests);
  return {
    checks,
    phases: PHASES.filter((phase) => phases.has(phase)),
    scenarios: plan.scenarios.map((scenario) => ({
      name: scenario.name,
      phase: scenario.phase,
      group: scenario.group,
      cases: scenario.arbitrary ? runs[properties.indexOf(scenario)]! : (scenario.cases?.length ?? 0),
      fixed: !scenario.arbitrary,
    })),
    skipped: plan.skipped,
    warnings: [...plan.warnings, ...session.checker.warnings],
    tested: plan.tested.map(({ id }) => id),
    filteredOut: api.operations.filter((operation) => !operations.includes(operation)).map(({ id }) => id),
    inferredLinks: api.operations.flatMap(({ id, responses }) =>
      responses.flatMap(({ status, links }) => links.filter(({ inferred }) => inferred).map(({ name }) => `${id} ${status} → ${name}`)),
    ),
  };
}

/** The result of a run before anything is sent: what the plan already says. */
function startResult(options: RunOptions, prepared: ReturnType<typeof prepare>): RunResult {
  const { document } = options;
  const { plan } = prepared;
  return {
    baseUrl: options.baseUrl,
    seed: options.seed,
    specTitle: document.info.title,
    specVersion: document.info.version,
    requests: 0,
    seconds: 0,
    checks: prepared.checks,
    scenarios: [],
    failures: [],
    skipped: plan.skipped,
    unauthenticated: plan.skipped.filter(({ credentials }) => credentials).map(({ operation }) => operation),
    skipUnauthenticated: options.skipUnauthenticated === true,
    notExercised: [],
    failOnNotExercised: prepared.profile.failOnNotExercised,
    warnings: plan.warnings,
    ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
  };
}

/** The scenarios to run, phase by phase as listed, the listing audit (a fixed stateful case) last; a replay's one. */
function scenariosToRun(scenarios: Scenario[], replay: RunOptions['replay']): Scenario[] {
  if (replay) {
    const named = scenarios.find(({ name }) => name === replay.scenario);
    if (!named)
      throw new RunError(`no scenario named ${replay.scenario}; the scenarios are:\n  ${scenarios.map(({ name }) => name).join('\n  ')}`);
    return [named];
  }
  return [...scenarios].sort(
    (a, b) =>
      PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) ||
      Number(!a.arbitrary && a.phase === 'stateful') - Number(!b.arbitrary && b.phase === 'stateful'),
  );
}

/** What one scenario of a run shares with the others: the client, what is known, the budget. */
interface ScenarioRun {
  client: ApiClient;
  seed: number;
  known: Set<string>;
  limits: { path?: string; deadline?: number };
  /** Each property scenario's share of the request budget. */
  runsOf: (scenario: Scenario) => number;
}

async function runScenario(scenario: Scenario, run: ScenarioRun): Promise<{ result: ScenarioResult; failures: Failure[] }> {
  const seed = checkSeed(run.seed, scenario.name);
  const base = { name: scenario.name, phase: scenario.phase, group: scenario.group, seed };
  const { deadline } = run.limits;
  if (deadline !== undefined && performance.now() > deadline) {
    const note = 'not run: --max-time reached';
    return { result: { ...base, status: 'skipped', runs: 0, requests: 0, seconds: 0, failures: 0, note }, failures: [] };
  }
  const started = performance.now();
  const sentBefore = run.client.sent;
  const outcome = scenario.arbitrary
    ? await runProperty(scenario, run.runsOf(scenario), seed, run.known, run.limits)
    : await runFixed(scenario, run.known, run.limits);
  const result: ScenarioResult = {
    ...base,
    status: outcome.failures.length ? 'failed' : 'passed',
    runs: outcome.runs,
    requests: run.client.sent - sentBefore,
    seconds: (performance.now() - started) / 1000,
    failures: outcome.failures.length,
    ...(scenario.note ? { note: scenario.note } : {}),
  };
  return { result, failures: outcome.failures };
}

/** The tested operations that document a success yet never got one in the run. */
function notExercisedOf(tested: OperationModel[], session: Session): string[] {
  return tested
    .filter(
      (operation) =>
        documentsSuccess(operation) && operation.responses.some(({ status }) => isSuccessStatus(status) || status === 'default'),
    )
    .filter((operation) => !session.successes.get(operation.id))
    .map(({ id }) => id);
}

/**
 * Runs the contract tests of a deployment: the scenarios the spec and the checks give the selected
 * operations, phase by phase (examples, coverage, fuzzing, stateful), the properties sharing the
 * request budget; every distinct failure shrunk to a minimal case.
 */
export async function runContractTests(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const deadline = deadlineOf(options, started);
  let prepared;
  try {
    prepared = prepare(options, deadline);
  } catch (error) {
    setGenerationDeadline(undefined);
    throw error;
  }
  const { client, session, plan, operations } = prepared;
  if (options.onExchange) client.onExchange = options.onExchange;
  if (deadline !== undefined) client.deadline = deadline;
  const result = startResult(options, prepared);
  try {
    const scenarios = scenariosToRun(plan.scenarios, options.replay);
    await preflight(session, plan.tested, options.baseUrl);
    const properties = scenarios.filter(({ arbitrary }) => arbitrary);
    const runs = allocateRuns(properties, options.requests);
    const replayPath = options.replay?.path;
    const run: ScenarioRun = {
      client,
      seed: options.seed,
      known: new Set<string>(),
      limits: { ...(replayPath !== undefined ? { path: replayPath } : {}), ...(deadline !== undefined ? { deadline } : {}) },
      runsOf: (scenario) => runs[properties.indexOf(scenario)]!,
    };
    for (const scenario of scenarios) {
      const { result: done, failures } = await runScenario(scenario, run);
      result.failures.push(...failures);
      result.scenarios.push(done);
      options.onResult?.(done);
    }
    if (!options.replay) {
      result.notExercised = notExercisedOf(plan.tested, session);
      result.coverage = session.coverage.report(operations);
    }
  } finally {
    setGenerationDeadline(undefined);
    client.close();
  }
  // What the response checker could not read, found as answers needed it.
  result.warnings = [...plan.warnings, ...session.checker.warnings];
  if (client.rateLimit.waits || client.rateLimit.unresolved) result.rateLimit = { ...client.rateLimit };
  result.requests = client.sent;
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/** When the run's budget ends, a `performance.now()` time; undefined without --max-time. */
function deadlineOf(options: RunOptions, now: number): number | undefined {
  return options.maxTimeSeconds === undefined ? undefined : (options.startedAt ?? now) + options.maxTimeSeconds * 1000;
}

/** Whether the run covered less of the spec than --min-coverage asks (a replay is not measured). */
export function belowMinCoverage(run: Pick<RunResult, 'coverage' | 'minCoverage'>): boolean {
  return run.minCoverage !== undefined && run.coverage !== undefined && run.coverage.totals.overall.percent < run.minCoverage;
}

/**
 * Whether a run failed: a failure, an operation it holds no credentials for (unless the user said
 * to skip those), (when that counts) an operation never exercised, or coverage below the minimum.
 */
export function runFailed(run: RunResult): boolean {
  return (
    run.failures.length > 0 ||
    (run.unauthenticated.length > 0 && !run.skipUnauthenticated) ||
    (run.failOnNotExercised && run.notExercised.length > 0) ||
    belowMinCoverage(run)
  );
}
