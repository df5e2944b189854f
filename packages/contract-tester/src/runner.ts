import fc from 'fast-check';
import type { OpenApiDocument } from './openapi.js';
import { planChecks, type Check } from './checks.js';
import { ApiClient, NoResponseError } from './http-client.js';
import { auditCollection, findCollections } from './listing-audit.js';
import { buildRequest, positiveParts } from './requests.js';
import { ContractChecker } from './response-contract.js';
import { CaseFailure, Session, type Step } from './session.js';
import { readApiModel, type ApiModel } from './spec-model.js';

export interface RunOptions {
  /** The deployment's base URL, with the base path: https://staging-api.petstore.example/v1. */
  baseUrl: string;
  apiKey?: string;
  /** The request budget: at least this many requests are generated, shared among the checks. */
  requests: number;
  seed: number;
  /** Only these operations (operationIds); all by default. */
  operations?: string[];
  /** Only these checks, by name; all by default. */
  checks?: string[];
  /** With one check: replay this fast-check path (printed with a failure) instead of searching. */
  path?: string;
  /** The spec the deployment is held to. */
  document: OpenApiDocument;
  /** Pages the listing audit reads at most (default 1,000). */
  auditPages?: number;
  /** Called as each check finishes. */
  onResult?: (result: CheckResult) => void;
}

export interface Failure {
  problems: string[];
  /** The requests of the minimal failing case, in order, with the answers they got. */
  steps: Step[];
  /** fast-check's path to the case: with the seed, `--check NAME --path PATH` replays it. */
  path?: string;
  shrinks: number;
}

export interface CheckResult {
  name: string;
  group: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Cases tried (until the first failure, if one). */
  runs: number;
  requests: number;
  seconds: number;
  seed: number;
  failure?: Failure;
  /** Why it was skipped, or what it could not finish. */
  note?: string;
}

export interface RunResult {
  baseUrl: string;
  seed: number;
  specVersion: string;
  requests: number;
  seconds: number;
  results: CheckResult[];
}

/** The run cannot start: the deployment does not answer, the key is refused, an option names nothing. */
export class RunError extends Error {}

/** A check's own seed, from the run's seed and its name, so that it replays alone as it ran among the others. */
export function checkSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return (seed ^ hash) | 0;
}

/** Runs per check so that the checks share the budget by weight; each run sends at least one request. */
export function allocateRuns(checks: ReadonlyArray<Pick<Check, 'weight'>>, budget: number): number[] {
  const total = checks.reduce((sum, { weight }) => sum + weight, 0);
  return checks.map(({ weight }) => Math.max(1, Math.ceil((budget * weight) / total)));
}

function selectOperations(api: ApiModel, ids: string[] | undefined) {
  if (!ids?.length) return api.operations;
  const unknown = ids.filter((id) => !api.operations.some((operation) => operation.id === id));
  if (unknown.length)
    throw new RunError(`no operation ${unknown.join(', ')} in the spec; it has ${api.operations.map(({ id }) => id).join(', ')}`);
  return api.operations.filter(({ id }) => ids.includes(id));
}

/** One request the deployment must answer at all, and, with a key, not with 401. */
async function preflight(session: Session, options: RunOptions): Promise<void> {
  const secured = session.api.operations.find((operation) => operation.credentials.length > 0 && operation.method === 'get');
  const operation = secured ?? session.api.operations[0];
  if (!operation) throw new RunError('the spec has no operations');
  const [parts] = fc.sample(positiveParts(operation, session.api.basePath), { numRuns: 1, seed: options.seed });
  try {
    const response = await session.client.send(buildRequest(parts!));
    if (secured && options.apiKey !== undefined && response.status === 401) {
      throw new RunError(`${options.baseUrl} refuses the API key (401 to ${operation.id}): check --api-key or PETSTORE_API_KEY`);
    }
  } catch (error) {
    if (error instanceof NoResponseError) throw new RunError(`${options.baseUrl} does not answer: ${error.message}`);
    throw error;
  }
}

async function runCheck(check: Check, runs: number, options: RunOptions, client: ApiClient): Promise<CheckResult> {
  const started = performance.now();
  const sentBefore = client.sent;
  const seed = checkSeed(options.seed, check.name);
  const details = await fc.check(fc.asyncProperty(check.arbitrary, check.run), {
    seed,
    numRuns: runs,
    ...(options.path ? { path: options.path, endOnFailure: true } : {}),
  });
  const result: CheckResult = {
    name: check.name,
    group: check.group,
    status: details.failed ? 'failed' : 'passed',
    runs: details.numRuns,
    requests: client.sent - sentBefore,
    seconds: (performance.now() - started) / 1000,
    seed,
  };
  if (details.failed) {
    const error = details.errorInstance;
    result.failure =
      error instanceof CaseFailure
        ? { problems: error.problems, steps: error.steps, shrinks: details.numShrinks }
        : {
            problems: [`the contract tester failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`],
            steps: [],
            shrinks: details.numShrinks,
          };
    if (details.counterexamplePath) result.failure.path = details.counterexamplePath;
  }
  return result;
}

/**
 * Runs the contract tests of a deployment: every check the spec gives the selected operations,
 * sharing the request budget, each failure shrunk by fast-check to a minimal case; then the listing
 * audit of everything the run created.
 */
export async function runContractTests(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const { document } = options;
  const api = readApiModel(document);
  // The deployment's base path, whatever the spec's servers say (a gateway may add a prefix).
  api.basePath = new URL(options.baseUrl).pathname.replace(/\/$/, '');
  const operations = selectOperations(api, options.operations);
  const collections = findCollections(api).filter(({ create, listing }) => operations.includes(create) && operations.includes(listing));
  const client = new ApiClient(options.baseUrl, options.apiKey);
  const session = new Session(
    api,
    client,
    new ContractChecker(document, { basePath: api.basePath }),
    new Set(collections.map(({ create }) => create.id)),
  );
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  try {
    await preflight(session, options);
    let checks = planChecks(session, operations);
    if (options.checks?.length) {
      const unknown = options.checks.filter((name) => !checks.some((candidate) => candidate.name === name));
      if (unknown.length)
        throw new RunError(`no check named ${unknown.join(', ')}; the checks are:\n  ${checks.map(({ name }) => name).join('\n  ')}`);
      checks = checks.filter(({ name }) => options.checks!.includes(name));
    }
    if (options.path !== undefined && checks.length !== 1) throw new RunError('--path replays one check: name it with --check');
    const runnable = checks.filter((check) => options.apiKey !== undefined || !check.needsKey);
    const runs = allocateRuns(runnable, options.requests);
    for (const check of checks) {
      const index = runnable.indexOf(check);
      if (index < 0) {
        report({
          name: check.name,
          group: check.group,
          status: 'skipped',
          runs: 0,
          requests: 0,
          seconds: 0,
          seed: checkSeed(options.seed, check.name),
          note: 'needs an API key',
        });
        continue;
      }
      report(await runCheck(check, runs[index]!, options, client));
    }
    if (options.apiKey !== undefined && !options.checks?.length) {
      for (const collection of collections) await audit(session, collection, options, report);
    }
  } finally {
    client.close();
  }
  return {
    baseUrl: options.baseUrl,
    seed: options.seed,
    specVersion: document.info.version,
    requests: client.sent,
    seconds: (performance.now() - started) / 1000,
    results,
  };
}

async function audit(
  session: Session,
  collection: ReturnType<typeof findCollections>[number],
  options: RunOptions,
  report: (result: CheckResult) => void,
) {
  const name = `links: ${collection.listing.id} lists each ${collection.create.id} once`;
  const started = performance.now();
  const sentBefore = session.client.sent;
  const base = { name, group: 'links', runs: 1, seed: options.seed };
  const done = () => ({ requests: session.client.sent - sentBefore, seconds: (performance.now() - started) / 1000 });
  try {
    const outcome = await auditCollection(session, collection, options.auditPages ?? 1000);
    if (outcome.complete) report({ ...base, status: 'passed', ...done(), note: `${outcome.pages} pages read` });
    else report({ ...base, status: 'skipped', ...done(), note: `the listing is longer than ${outcome.pages} pages (--audit-pages)` });
  } catch (error) {
    if (!(error instanceof CaseFailure)) throw error;
    report({ ...base, status: 'failed', ...done(), failure: { problems: error.problems, steps: error.steps, shrinks: 0 } });
  }
}
