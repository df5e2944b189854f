import fc from 'fast-check';
import type { CaseKind } from '../checks/expectations.js';
import type { CheckName } from '../checks/names.js';
import { coverageCases } from '../generate/coverage.js';
import { checkDeadline, DeadlineReached } from '../deadline.js';
import { baseParts, exampleCases, type FixedCase } from '../generate/examples.js';
import { RULES } from '../generate/invalid-values.js';
import { BODY_RULES, negativeCases, ruleCheck, type NegativeCase, type NegativeRule } from '../generate/negative-requests.js';
import {
  allowedMethods,
  invalidCredentials,
  unknownPathCases,
  withoutValidCredentials,
  wrongMethodCases,
} from '../generate/request-variants.js';
import { buildRequest, positiveParts, type RequestParts } from '../generate/requests.js';
import { UnmakeableValue } from '../generate/valid-values.js';
import { linkSuppliedParameters } from '../stateful/links.js';
import { findCollections, auditCollection, type Collection } from '../stateful/listing-audit.js';
import { ResourceLedger } from '../stateful/resources.js';
import { lifecycle, onResource, resourceOperations, runSequence, sequences, type Action } from '../stateful/sequences.js';
import { needsCredentials, type OperationModel } from '../spec/model.js';
import type { Problem, Session, Step } from '../stateful/session.js';

export const PHASES = ['examples', 'coverage', 'fuzzing', 'stateful'] as const;
export type Phase = (typeof PHASES)[number];

/**
 * One way of testing the deployment: a property whose cases fast-check makes and shrinks
 * (fuzzing, stateful), or a fixed list of cases each sent once (examples, coverage). Its `run`
 * sends a case and returns every problem it showed.
 */
export interface Scenario {
  name: string;
  phase: Phase;
  /** What it belongs to in reports: an operationId, a path, or `stateful`. */
  group: string;
  /** Its share of the request budget, relative to the other properties. */
  weight: number;
  /** About how many requests one of its cases sends (a sequence sends several). */
  requestsPerCase?: number;
  arbitrary?: fc.Arbitrary<unknown>;
  cases?: unknown[];
  run: (value: unknown) => Promise<Problem[]>;
  /** Set by a run that could not finish what it set out to do (a listing longer than it reads). */
  note?: string;
  /** False for one whose cases depend on the whole run before it (the listing audit): no path replays them. */
  replayable?: boolean;
}

export interface Plan {
  scenarios: Scenario[];
  /** Operations the run cannot test, and why (`credentials`: for want of them). */
  skipped: Array<{ operation: string; reason: string; credentials?: true }>;
  /** What the spec says that the run will not use (an invalid example, a link to nowhere). */
  warnings: string[];
  /** The operations tested. */
  tested: OperationModel[];
}

/** Checks every answer is held to, whatever the case: a scenario that sends requests can show them. */
const ANSWER_CHECKS: CheckName[] = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'max_response_time',
  'required_response_headers',
  'forbidden_response_headers',
  'error_schema_conformance',
  'no_undocumented_body',
];

function property<T>(
  name: string,
  phase: Phase,
  group: string,
  weight: number,
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<Problem[]>,
): Scenario {
  return { name, phase, group, weight, arbitrary, run: (value) => run(value as T) };
}

function fixed<T>(name: string, phase: Phase, group: string, cases: T[], run: (value: T) => Promise<Problem[]>): Scenario {
  return { name, phase, group, weight: 0, cases, run: (value) => run(value as T) };
}

/** Whether an operation's valid requests can be made at all (a schema past a recursion cut cannot). */
function unmakeable(session: Session, operation: OperationModel): string | undefined {
  try {
    fc.sample(positiveParts(operation, session.api.basePath, session.credentialsFor(operation)), { numRuns: 3, seed: 1 });
    return undefined;
  } catch (error) {
    if (error instanceof UnmakeableValue) return error.message;
    throw error;
  }
}

/** The creates that make what an operation acts on (POST /pets for GET /pets/{petId}). */
function creatorsOf(session: Session, operation: OperationModel, operations: OperationModel[]): OperationModel[] {
  return operations.filter((candidate) => candidate.method === 'post' && resourceOperations(session, candidate, [operation]).length > 0);
}

/**
 * The scenarios of the operations under test, all made from the spec and the checks that are on:
 * per operation its examples, its boundaries, valid requests, one property per rule an invalid
 * request can break, and requests without valid credentials; per path, the methods it does not
 * have; sequences that follow links and what creates make; each create's lifecycle.
 */
export function planScenarios(session: Session, selected: OperationModel[], phases: ReadonlySet<Phase>): Plan {
  const progress: Progress = { plan: { scenarios: [], skipped: [], warnings: [...session.api.warnings], tested: [] } };
  try {
    return planAll(session, selected, phases, progress);
  } catch (error) {
    if (!(error instanceof DeadlineReached)) throw error;
    return truncatedPlan(selected, progress);
  }
}

/** How far planning got: the plan so far, and the operation being planned (none once all were). */
interface Progress {
  plan: Plan;
  operation?: OperationModel;
}

/** The plan as far as --max-time let it go: the operation it was on and those after it are not tested. */
function truncatedPlan(selected: OperationModel[], { plan, operation }: Progress): Plan {
  if (!operation) {
    plan.warnings.push('--max-time was reached while planning: some per-path and stateful scenarios were not planned');
    return plan;
  }
  const late = new Set(selected.slice(selected.indexOf(operation)).map(({ id }) => id));
  return {
    scenarios: plan.scenarios.filter(({ group }) => !late.has(group)),
    skipped: [
      ...plan.skipped.filter(({ operation: id }) => !late.has(id)),
      ...[...late].map((id) => ({ operation: id, reason: 'not planned: --max-time was reached while planning' })),
    ],
    warnings: plan.warnings,
    tested: plan.tested.filter(({ id }) => !late.has(id)),
  };
}

function planAll(session: Session, selected: OperationModel[], phases: ReadonlySet<Phase>, progress: Progress): Plan {
  const { api } = session;
  const on = (...checks: CheckName[]) => checks.some((check) => session.enabled(check));
  const answers = on(...ANSWER_CHECKS, 'positive_data_acceptance', 'write_echo');
  const profile = session.settings.profile;
  const { scenarios, skipped, warnings, tested } = progress.plan;

  const send = async (
    kind: CaseKind,
    operation: OperationModel,
    { request, why, check }: NegativeCase,
    allowed?: string[],
    earlier: Step[] = [],
  ) =>
    (
      await session.send(
        { kind, operation, request, why, ...(check ? { rejectionCheck: check } : {}), ...(allowed ? { allowed } : {}) },
        earlier,
      )
    ).problems;
  // Cases of an operation on a resource: a third of them on one a create just made (the rest on made-up
  // ids), so that what the operation does to an existing resource is tested too.
  const onMade = <T>(operation: OperationModel, cases: fc.Arbitrary<T>, run: (value: T, made?: Made) => Promise<Problem[]>) => {
    const creator = creatorsOf(session, operation, selected)[0];
    if (!creator)
      return {
        arbitrary: cases.map((value) => [undefined, value] as const),
        run: ([, value]: readonly [unknown, T]) => run(value),
        requestsPerCase: 1,
      };
    // A third of the cases: creates are the costliest requests a server answers.
    const creates = fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: positiveParts(creator, api.basePath, session.credentialsFor(creator)) },
    );
    return {
      arbitrary: fc.tuple(creates, cases),
      requestsPerCase: 1.33,
      run: async ([create, value]: readonly [RequestParts | undefined, T]) => {
        if (!create) return run(value);
        const made = await makeResource(session, creator, create, operation);
        return [...made.problems, ...(await run(value, made.change ? made : undefined))];
      },
    };
  };
  const resourceProperty = <T>(
    name: string,
    operation: OperationModel,
    weight: number,
    cases: fc.Arbitrary<T>,
    run: (value: T, made?: Made) => Promise<Problem[]>,
  ) => {
    const made = onMade(operation, cases, run);
    return {
      ...property(
        name,
        'fuzzing',
        operation.id,
        weight,
        made.arbitrary as fc.Arbitrary<unknown>,
        made.run as (value: unknown) => Promise<Problem[]>,
      ),
      requestsPerCase: made.requestsPerCase,
    };
  };
  const sendNegative = (operation: OperationModel) => (value: NegativeCase, made?: Made) =>
    send(
      'negative',
      operation,
      made?.change && value.rebuild ? { ...value, request: value.rebuild(made.change) } : value,
      undefined,
      made?.steps,
    );
  const sendParts = async (operation: OperationModel, parts: RequestParts, why?: string, bodyValue?: unknown, earlier: Step[] = []) =>
    (
      await session.send(
        {
          kind: 'positive',
          operation,
          request: buildRequest(parts),
          ...(why ? { why } : {}),
          ...(bodyValue !== undefined ? { bodyValue } : parts.body && 'value' in parts.body ? { bodyValue: parts.body.value } : {}),
        },
        earlier,
      )
    ).problems;
  // A fixed case of an operation on a resource goes to one a create just made (the path parameter
  // whose value the case tries, if it tries one, kept).
  const sendFixed = async (operation: OperationModel, item: FixedCase & { check?: CheckName }) => {
    const creator = creatorsOf(session, operation, selected)[0];
    const made = creator
      ? await makeResource(session, creator, baseParts(api, creator, session.credentialsFor(creator)).parts, operation)
      : undefined;
    let parts = made?.change ? made.change(item.parts) : item.parts;
    if (item.pathParameter)
      parts = {
        ...parts,
        pathParameters: { ...parts.pathParameters, [item.pathParameter]: item.parts.pathParameters[item.pathParameter]! },
      };
    const sent = await session.send(
      {
        kind: item.valid ? 'positive' : 'negative',
        operation,
        request: buildRequest(parts),
        why: item.why,
        ...(item.bodyValue !== undefined ? { bodyValue: item.bodyValue } : {}),
        ...(item.valid ? {} : { rejectionCheck: item.check ?? 'negative_data_rejection' }),
      },
      made?.steps,
    );
    return [...(made?.problems ?? []), ...sent.problems];
  };

  for (const operation of selected) {
    progress.operation = operation;
    checkDeadline();
    const authentication = session.client.credentials.forOperation(operation);
    const forge = { ...(profile.forgedTokenPrefix ? { tokenPrefix: profile.forgedTokenPrefix } : {}), malformed: true };
    const options = { linkSupplied: linkSuppliedParameters(api, operation) };
    const reason =
      operation.unsupported ?? (authentication.kind === 'impossible' ? authentication.reason : undefined) ?? unmakeable(session, operation);
    if (reason) {
      const noCredentials = !operation.unsupported && authentication.kind === 'impossible';
      skipped.push({ operation: operation.id, reason, ...(noCredentials ? { credentials: true as const } : {}) });
      // 401 first needs no credentials: it runs for an operation the tester cannot authenticate.
      if (
        phases.has('fuzzing') &&
        on('auth_first') &&
        needsCredentials(operation) &&
        !operation.unsupported &&
        !unmakeable(session, operation)
      ) {
        const requests = positiveParts(operation, api.basePath, { kind: 'none' }, options).map((parts) => ({
          request: buildRequest(parts),
          why: 'valid',
        }));
        scenarios.push(
          property(`${operation.id}: 401 first`, 'fuzzing', operation.id, 2, withoutValidCredentials(operation, requests, forge), (value) =>
            send('auth-first', operation, value),
          ),
        );
      }
      continue;
    }
    tested.push(operation);
    const unmade = (operation.body?.media ?? []).filter(({ kind }) => !kind).map(({ mediaType }) => mediaType);
    if (unmade.length) {
      const made = operation.body!.media.filter(({ kind }) => kind).map(({ mediaType }) => mediaType);
      warnings.push(
        `${operation.id}: its ${unmade.join(' and ')} bodies are not made (the tester does not write them); tested with ${made.join(' and ')}`,
      );
    }
    const credentials = session.credentialsFor(operation);
    if (phases.has('examples') && answers) {
      const { cases, warnings: notSent } = exampleCases(api, operation, credentials, options.linkSupplied);
      warnings.push(...notSent);
      if (cases.length)
        scenarios.push(fixed(`${operation.id}: examples`, 'examples', operation.id, cases, (item) => sendFixed(operation, item)));
    }
    if (phases.has('coverage') && (answers || on('negative_data_rejection', 'missing_required_header'))) {
      const cases = coverageCases(api, operation, credentials, options.linkSupplied).filter(
        (item) => item.valid || session.enabled(item.check ?? 'negative_data_rejection'),
      );
      if (cases.length)
        scenarios.push(fixed(`${operation.id}: coverage`, 'coverage', operation.id, cases, (item) => sendFixed(operation, item)));
    }
    if (!phases.has('fuzzing')) continue;
    const positive = positiveParts(operation, api.basePath, credentials, options);
    if (answers) {
      scenarios.push(
        resourceProperty(`${operation.id}: valid requests`, operation, 6, positive, (parts, made) =>
          sendParts(operation, made?.change ? made.change(parts) : parts, undefined, undefined, made?.steps),
        ),
      );
    }
    if (on('head_as_get') && operation.method === 'get') {
      scenarios.push(
        property(
          `${operation.id}: HEAD as GET`,
          'fuzzing',
          operation.id,
          1,
          positive,
          async (parts) =>
            (
              await session.send({
                kind: 'head',
                operation,
                request: buildRequest({ ...parts, method: 'HEAD' }),
                why: 'HEAD must be answered as GET is, without the body (RFC 9110 §9.3.2)',
              })
            ).problems,
        ),
      );
    }
    const anyRequest: fc.Arbitrary<NegativeCase>[] = [positive.map((parts) => ({ request: buildRequest(parts), why: 'valid' }))];
    for (const rule of [...RULES, ...BODY_RULES] as NegativeRule[]) {
      const check = ruleCheck(rule);
      if (!on(check) && !(rule === 'missing required' && on('missing_required_header'))) continue;
      const cases = negativeCases(api, operation, rule, credentials, options);
      if (!cases) continue;
      anyRequest.push(cases);
      scenarios.push(resourceProperty(`${operation.id}: ${rule}`, operation, 1, cases, sendNegative(operation)));
    }
    if (on('exact_paths')) {
      scenarios.push(
        property(
          `${operation.id}: unknown path`,
          'fuzzing',
          operation.id,
          1,
          unknownPathCases(api, operation, credentials, false, options),
          (value) => send('unknown-path', operation, value),
        ),
      );
    }
    if (needsCredentials(operation) && on('ignored_auth')) {
      scenarios.push(ignoredAuth(session, operation, selected));
    }
    if (needsCredentials(operation) && on('auth_first')) {
      const wrongMethod = wrongMethodCases(api, operation.path, () => ({ kind: 'none' }), options);
      const everything = fc.oneof(
        ...anyRequest,
        unknownPathCases(api, operation, credentials, true, options),
        ...(wrongMethod ? [wrongMethod] : []),
      );
      scenarios.push(
        property(`${operation.id}: 401 first`, 'fuzzing', operation.id, 2, withoutValidCredentials(operation, everything, forge), (value) =>
          send('auth-first', operation, value),
        ),
      );
    }
  }

  delete progress.operation;
  for (const path of [...new Set(tested.map(({ path }) => path))]) {
    checkDeadline();
    const operation = tested.find((candidate) => candidate.path === path)!;
    if (phases.has('coverage') && on('allow_header_conformance')) {
      const { parts } = baseParts(api, operation, session.credentialsFor(operation));
      const { body: _body, ...request } = parts;
      const allowed = allowedMethods(api, path, on('head_as_get'));
      scenarios.push(
        fixed(`${path}: OPTIONS`, 'coverage', path, [{ ...request, method: 'OPTIONS' }], async (item) =>
          send(
            'options',
            operation,
            { request: buildRequest(item), why: 'OPTIONS lists the methods of the path in Allow, if it answers' },
            allowed,
          ),
        ),
      );
    }
    if (phases.has('fuzzing') && on('unsupported_method', 'allow_header_conformance')) {
      const cases = wrongMethodCases(api, path, (candidate) => session.credentialsFor(candidate));
      const allowed = allowedMethods(api, path, on('head_as_get'));
      if (cases)
        scenarios.push(
          property(`${path}: methods not allowed`, 'fuzzing', path, 1, cases, (value) => send('method', operation, value, allowed)),
        );
    }
  }

  if (phases.has('stateful')) scenarios.push(...statefulScenarios(session, tested));
  return { scenarios, skipped, warnings, tested };
}

/**
 * ignored_auth: a request of the operation (on a resource just made, where a create makes what it
 * acts on) sent without credentials and with forged ones: neither may succeed. No credential of
 * any alternative scheme goes with them, so no other scheme authenticates them.
 */
function ignoredAuth(session: Session, operation: OperationModel, selected: OperationModel[]): Scenario {
  const { api } = session;
  const creator = creatorsOf(session, operation, selected)[0];
  const parts = positiveParts(operation, api.basePath, session.credentialsFor(operation), {
    linkSupplied: linkSuppliedParameters(api, operation),
  });
  const created = creator
    ? positiveParts(creator, api.basePath, session.credentialsFor(creator)).map((value) => value as RequestParts | undefined)
    : fc.constant(undefined);
  const forged = invalidCredentials(operation.security.alternatives);
  const scenario = property(
    `${operation.id}: without credentials`,
    'fuzzing',
    operation.id,
    2,
    fc.tuple(created, parts, forged),
    async ([create, request, { credentials, why }]) => {
      const problems: Problem[] = [];
      let target = request;
      let earlier: Step[] = [];
      if (create && creator) {
        const made = await makeResource(session, creator, create, operation);
        problems.push(...made.problems);
        if (made.change) target = made.change(request);
        earlier = made.steps;
      }
      for (const variant of [{ kind: 'none' as const }, credentials]) {
        const unauthenticated = { ...buildRequest(target), credentials: variant };
        const sent = await session.send(
          { kind: 'unauthenticated', operation, request: unauthenticated, why: variant.kind === 'none' ? 'no credentials' : why },
          earlier,
        );
        problems.push(...sent.problems);
      }
      return problems;
    },
  );
  scenario.requestsPerCase = creator ? 3 : 2;
  return scenario;
}

/** What a create made for a case: the change that points the case's request at it, and the create's step. */
interface Made {
  problems: Problem[];
  change?: (parts: RequestParts) => RequestParts;
  steps: Step[];
}

/** Sends a create and learns what it made. */
async function makeResource(session: Session, creator: OperationModel, create: RequestParts, operation: OperationModel): Promise<Made> {
  const ledger = new ResourceLedger(session.api, session.linkContext);
  const sent = await session.send({
    kind: 'positive',
    operation: creator,
    request: buildRequest(create),
    ...(create.body && 'value' in create.body ? { bodyValue: create.body.value } : {}),
  });
  if (!sent.exchange) return { problems: sent.problems, steps: [] };
  ledger.observe(sent.exchange);
  const [resource] = ledger.candidates(operation);
  const steps: Step[] = [{ request: sent.exchange.request, response: sent.exchange.response }];
  return {
    problems: sent.problems,
    steps,
    ...(resource ? { change: (parts: RequestParts) => onResource(parts, operation, resource) } : {}),
  };
}

function statefulScenarios(session: Session, tested: OperationModel[]): Scenario[] {
  const { api } = session;
  const scenarios: Scenario[] = [];
  const ids = new Set(tested.map(({ id }) => id));
  const linked = tested.some((operation) => operation.responses.some(({ links }) => links.some((link) => ids.has(link.targetOperationId))));
  const creators = tested.filter((operation) => operation.method === 'post' && resourceOperations(session, operation, tested).length > 0);
  if (linked || creators.length) {
    scenarios.push({
      ...property(
        'stateful: sequences',
        'stateful',
        'stateful',
        6,
        fc.tuple(sequences(session, tested), fc.nat()),
        ([actions, seed]: [Action[], number]) => runSequence(session, actions, ids, seed),
      ),
      requestsPerCase: 3,
    });
  }
  for (const create of creators) {
    scenarios.push(
      fixed(
        `stateful: ${create.id} lifecycle, each operation once`,
        'stateful',
        'stateful',
        [orderedLifecycle(session, create, tested)],
        (value: Action[]) => runSequence(session, value, ids),
      ),
    );
    const actions = lifecycle(session, create, tested);
    if (actions) {
      scenarios.push({
        ...property(
          `stateful: ${create.id} lifecycle`,
          'stateful',
          'stateful',
          3,
          fc.tuple(actions, fc.nat()),
          ([value, seed]: [Action[], number]) => runSequence(session, value, ids, seed),
        ),
        requestsPerCase: 4,
      });
    }
  }
  if (session.enabled('listing_audit')) {
    for (const collection of findCollections(api).filter(({ create, listing }) => ids.has(create.id) && ids.has(listing.id))) {
      scenarios.push(listingAudit(session, collection));
    }
  }
  return scenarios;
}

/**
 * A resource's whole life, each operation on it once, in the order that shows the most: made, read,
 * changed, read back, deleted, then read, changed and deleted again (each of which must now fail).
 */
function orderedLifecycle(session: Session, create: OperationModel, tested: OperationModel[]): Action[] {
  const { api } = session;
  const call = (operation: OperationModel, reuse?: number): Action => ({
    kind: 'call',
    operation,
    parts: baseParts(api, operation, session.credentialsFor(operation)).parts,
    ...(reuse === undefined ? {} : { reuse }),
  });
  const on = resourceOperations(session, create, tested);
  const reads = on.filter(({ method }) => method === 'get' || method === 'head');
  const writes = on.filter(({ method }) => method === 'put' || method === 'patch' || method === 'post');
  const deletes = on.filter(({ method }) => method === 'delete');
  return [
    call(create),
    ...reads.map((operation) => call(operation, 0)),
    ...writes.map((operation) => call(operation, 0)),
    ...(writes.length ? reads : []).map((operation) => call(operation, 0)),
    ...deletes.map((operation) => call(operation, 0)),
    ...(deletes.length ? [...reads, ...writes, ...deletes] : []).map((operation) => call(operation, 0)),
  ];
}

/** The listing audit, after everything else: one fixed case. */
function listingAudit(session: Session, collection: Collection): Scenario {
  const name = `stateful: ${collection.listing.id} lists each ${collection.create.id}`;
  const scenario: Scenario = fixed(name, 'stateful', 'stateful', [collection], async (item) => {
    const outcome = await auditCollection(session, item, session.settings.profile.auditPages);
    if (!outcome.complete) scenario.note = `the listing was not read to its end (${outcome.pages} pages read; listing_audit.maxPages)`;
    return outcome.problems;
  });
  scenario.replayable = false;
  return scenario;
}
