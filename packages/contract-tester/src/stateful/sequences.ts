import fc from 'fast-check';
import type { CheckName } from '../registry/checks.js';
import { deleteIsFinal } from './checks/delete-is-final.js';
import { ensureResourceAvailability } from './checks/ensure-resource-availability.js';
import { linksSucceed } from './checks/links-succeed.js';
import { pagingConformance } from './checks/paging-conformance.js';
import { readBack } from './checks/read-back.js';
import type { SequenceStep, SinceLink, StepCheck } from './checks/sequence-step.js';
import { useAfterFree } from './checks/use-after-free.js';
import type { JsonValue } from '../generate/json-text.js';
import { buildRequest, positiveParts, setParameter, splitTarget, type RequestParts } from '../generate/requests.js';
import type { Case, Problem, Session, Step } from './session.js';
import type { ApiModel, OperationModel } from '../spec/model.js';
import { linksFrom, linkSuppliedParameters, type Exchange, type LinkContext, type LinkStep } from './links.js';
import { bodyIdentity, namesDeleted, operationsOn, ResourceLedger, resourceTemplates, WRITES, type Resource } from './resources.js';

/**
 * One step of a sequence: a valid request of an operation (its path parameters, with `reuse`, those
 * of a resource the sequence made), or following one of the links seen so far.
 */
export type Action =
  | { kind: 'call'; operation: OperationModel; parts: RequestParts; reuse?: number }
  /** A link seen so far, picked among all of them, or among those to operation `to`. */
  | { kind: 'follow'; pick: number; to?: OperationModel };

/** The path parameters of a request set to those of a resource. */
export function onResource(parts: RequestParts, operation: OperationModel, resource: Resource): RequestParts {
  let next = parts;
  for (const parameter of operation.parameters) {
    const value = parameter.in === 'path' ? resource.parameters[parameter.name] : undefined;
    if (value !== undefined) next = setParameter(next, parameter, value);
  }
  // An update sent to the collection names the resource in its body (PUT /pet with the pet's id).
  const property = bodyIdentity(operation, resource.template);
  const name = Object.keys(resource.parameters).at(-1);
  const body = next.body;
  if (
    property !== undefined &&
    name !== undefined &&
    body &&
    'value' in body &&
    body.value !== null &&
    typeof body.value === 'object' &&
    !Array.isArray(body.value)
  ) {
    const text = decodeURIComponent(resource.parameters[name]!);
    const value = /^-?\d+$/.test(text) ? Number(text) : text;
    next = { ...next, body: { ...body, value: { ...(body.value as Record<string, JsonValue>), [property]: value } } };
  }
  return next;
}

/** A valid request of an operation, as an action; for one with path parameters, often on a resource made before. */
function callOf(session: Session, operation: OperationModel, reuse: 'sometimes' | 'always'): fc.Arbitrary<Action> {
  const { api } = session;
  const parts = positiveParts(operation, api.basePath, session.credentialsFor(operation), {
    linkSupplied: linkSuppliedParameters(api, operation),
  });
  if (!operation.parameters.some((parameter) => parameter.in === 'path'))
    return parts.map((value): Action => ({ kind: 'call', operation, parts: value }));
  const pick = reuse === 'always' ? fc.nat() : fc.option(fc.nat(), { nil: undefined, freq: 3 });
  return fc
    .tuple(parts, pick)
    .map(([value, index]): Action => ({ kind: 'call', operation, parts: value, ...(index === undefined ? {} : { reuse: index }) }));
}

/** Sequences of valid requests and link follows over the operations, with at least one request. */
export function sequences(session: Session, operations: OperationModel[]): fc.Arbitrary<Action[]> {
  const call = fc.oneof(...operations.map((operation) => callOf(session, operation, 'sometimes')));
  const follow = fc.nat().map((pick): Action => ({ kind: 'follow', pick }));
  // Any sequence with a request sends one (a follow with nothing to follow sends none), and the
  // shrinker may still drop the first request when a later one is what fails.
  return fc
    .array(fc.oneof({ weight: 1, arbitrary: call }, { weight: 2, arbitrary: follow }), { minLength: 1, maxLength: 9 })
    .filter((actions) => actions.some(({ kind }) => kind === 'call'));
}

/** The operations that act on what a create makes (reads, updates, deletes, below it), among those given. */
export function resourceOperations(session: Session, create: OperationModel, operations: OperationModel[]): OperationModel[] {
  // One pass over the API per template, not one per operation given: a spec of thousands of
  // operations has as many creates.
  const onResources = new Set(resourceTemplates(session.api, create).flatMap((template) => operationsOn(session.api, template)));
  return operations.filter((operation) => operation !== create && onResources.has(operation));
}

const creatorsByApi = new WeakMap<ApiModel, Map<OperationModel, OperationModel[]>>();

/**
 * The creates that make what each operation of the API acts on, worked out once per API (planning
 * asks for every operation, and asking each create about each operation is cubic in the spec's
 * size). The API must not change after the first call: the run infers its links before planning.
 */
function creatorsIndex(session: Session): Map<OperationModel, OperationModel[]> {
  let index = creatorsByApi.get(session.api);
  if (index) return index;
  index = new Map();
  for (const create of session.api.operations) {
    if (create.method !== 'post') continue;
    for (const operation of resourceOperations(session, create, session.api.operations)) {
      const creators = index.get(operation);
      if (creators) creators.push(create);
      else index.set(operation, [create]);
    }
  }
  creatorsByApi.set(session.api, index);
  return index;
}

/** The creates among `operations` that make what an operation acts on (POST /pets for GET /pets/{petId}). */
export function creatorsOf(session: Session, operation: OperationModel, operations: OperationModel[]): OperationModel[] {
  const creators = creatorsIndex(session).get(operation) ?? [];
  return creators.filter((create) => operations.includes(create));
}

/**
 * A resource's life: a create, then requests on what it made (reads, updates, deletes in any
 * order), and links followed from the answers.
 */
export function lifecycle(session: Session, create: OperationModel, operations: OperationModel[]): fc.Arbitrary<Action[]> | undefined {
  const targets = resourceOperations(session, create, operations);
  if (!targets.length) return undefined;
  const on = fc.oneof(...targets.map((operation) => callOf(session, operation, 'always')));
  const follow = fc.nat().map((pick): Action => ({ kind: 'follow', pick }));
  const start = fc.oneof(
    callOf(session, create, 'sometimes').map((call) => [call]),
    ...linkedStarts(session, create, operations),
  );
  return fc
    .tuple(start, fc.array(fc.oneof({ weight: 4, arbitrary: on }, { weight: 1, arbitrary: follow }), { minLength: 1, maxLength: 6 }))
    .map(([first, rest]) => [...first, ...rest]);
}

/**
 * The other ways a create can start a resource's life: through a link whose body the spec gives
 * (createPet's 201 to createStoreOrder, with the new pet's id as the order's petId), from an
 * operation without path parameters, so that a create whose body names another resource makes one
 * where made-up values would name none.
 */
function linkedStarts(session: Session, create: OperationModel, operations: OperationModel[]): Array<fc.Arbitrary<Action[]>> {
  return linkSources(create, operations).map((source) =>
    fc.tuple(callOf(session, source, 'sometimes'), fc.nat()).map(([call, pick]): Action[] => [call, { kind: 'follow', pick, to: create }]),
  );
}

/** The operations, without path parameters, whose answers link to `create` with a body for it. */
export function linkSources(create: OperationModel, operations: OperationModel[]): OperationModel[] {
  return operations.filter(
    (source) =>
      source !== create &&
      !source.parameters.some((parameter) => parameter.in === 'path') &&
      source.responses.some(({ links }) => links.some((link) => link.targetOperationId === create.id && link.requestBody !== undefined)),
  );
}

/**
 * A 404 or 410 from what names a resource the sequence deleted: the server removed it with that one
 * (a cascade, such as an order with its pet). It counts as deleted from then on.
 */
function removedInCascade(
  ledger: ResourceLedger,
  resource: Resource | undefined,
  state: Resource['state'] | undefined,
  exchange: Exchange,
): boolean {
  const { status } = exchange.response;
  if (!resource || state !== 'present' || (status !== 404 && status !== 410) || !namesDeleted(ledger.resources, resource)) return false;
  resource.state = 'deleted';
  return true;
}

/** What a link came from: what its source made (the `Location` of its answer) or else what it addressed. */
function sourcePath({ request, response }: Exchange): string {
  const location = response.headers['location'];
  if (typeof location === 'string' && response.status >= 200 && response.status < 300) {
    const url = new URL(location, 'http://origin.invalid');
    if (url.origin === 'http://origin.invalid') return url.pathname;
  }
  return request.target;
}

/**
 * The writes of a sequence that answered 2xx, by path, numbered in order: whether a link's target
 * changed after the link was seen, for resources the ledger never learned (one read, not made, in
 * this sequence) as well as those it did.
 */
class PathWrites {
  private count = 0;
  private readonly lastWrite = new Map<string, number>();
  private readonly deletedAt = new Map<string, number>();

  /** The number of the last write, to compare a later one with. */
  get now(): number {
    return this.count;
  }

  observe({ request, response }: Exchange): void {
    const method = request.method.toUpperCase();
    if (!WRITES.has(method) || response.status < 200 || response.status > 299) return;
    const [path] = splitTarget(request.target);
    this.count += 1;
    this.lastWrite.set(path, this.count);
    if (method === 'DELETE') this.deletedAt.set(path, this.count);
  }

  since(target: string, seen: number): Omit<SinceLink, 'sourceDeleted'> {
    const [path] = splitTarget(target);
    const deleted = [...this.deletedAt].some(([at, when]) => when > seen && (path === at || path.startsWith(`${at}/`)));
    return { written: (this.lastWrite.get(path) ?? 0) > seen, deleted };
  }
}

/**
 * The checks of a sequence's step: one on a resource the sequence deleted is judged only as a use
 * of what is gone; any other by what the sequence made, wrote and followed.
 */
const ON_DELETED = [useAfterFree, deleteIsFinal] as const satisfies readonly StepCheck[];
const ON_OTHERS = [ensureResourceAvailability, linksSucceed, readBack, pagingConformance] as const satisfies readonly StepCheck[];

/** What a sequence's state says of an answer: a deleted resource served, a created one missing, a write not read back. */
function statefulFindings(step: SequenceStep): Array<{ check: CheckName; message: string }> {
  const checks = step.before?.state === 'deleted' ? ON_DELETED : ON_OTHERS;
  return checks.flatMap((definition) => definition.check(step).map((message) => ({ check: definition.name, message })));
}

/**
 * Runs a sequence: each request checked as a valid one, each followed link as a link; against the
 * sequence's own record of what it made, changed and deleted: a deleted resource must not be served
 * (use_after_free), a made one must be found (ensure_resource_availability), a read must answer
 * the last write (read_back). Links come from the spec's `links` of the responses seen, restricted
 * to the operations under test; a link's target that needs a body and gets none from the link gets
 * a valid one (from `seed`, so that the sequence replays as it ran).
 */
export async function runSequence(session: Session, actions: Action[], operations: ReadonlySet<string>, seed = 0): Promise<Problem[]> {
  const steps: Step[] = [];
  const pending: LinkStep[] = [];
  // The writes the resource a link addresses had seen when the link was, and the sequence's writes
  // then, to tell a stale precondition or a link to what is gone.
  const writesWhenSeen = new Map<LinkStep, number>();
  const pathWrites = new PathWrites();
  const seenAt = new Map<LinkStep, number>();
  const problems: Problem[] = [];
  let made = 0;
  const context: LinkContext = { ...session.linkContext, bodyFor: (operation) => session.sampleBody(operation, seed + made++) };
  const ledger = new ResourceLedger(session.api, context);
  for (const action of actions) {
    let item: Case;
    let link: LinkStep | undefined;
    if (action.kind === 'call') {
      let parts = action.parts;
      const candidates = action.reuse === undefined ? [] : ledger.candidates(action.operation);
      if (candidates.length) parts = onResource(parts, action.operation, candidates[action.reuse! % candidates.length]!);
      item = { kind: 'positive', operation: action.operation, request: buildRequest(parts) };
      if (parts.body && 'value' in parts.body) item.bodyValue = parts.body.value;
    } else {
      const eligible = action.to ? pending.filter((step) => step.target === action.to) : pending;
      if (!eligible.length) continue;
      link = eligible[action.pick % eligible.length]!;
      item = {
        kind: 'link',
        operation: link.target,
        request: link.request,
        why: `follows link ${link.link.name} of ${link.from.operation.id}`,
      };
    }
    const addressed = ledger.addressed(item.request.target);
    const before = addressed && { resource: addressed, state: addressed.state, last: addressed.last };
    const sent = await session.send(item, steps);
    problems.push(...sent.problems);
    if (!sent.exchange) break;
    const exchange = sent.exchange;
    const step: Step = { request: exchange.request, response: exchange.response };
    const ledgerWritten = link !== undefined && addressed !== undefined && addressed.writes > (writesWhenSeen.get(link) ?? Infinity);
    const seen = link ? (seenAt.get(link) ?? Infinity) : Infinity;
    const pathChanged = link ? pathWrites.since(link.request.target, seen) : { written: false, deleted: false };
    const sourceDeleted = link !== undefined && pathWrites.since(sourcePath(link.from), seen).deleted;
    const sinceLink = { ...pathChanged, written: pathChanged.written || ledgerWritten, sourceDeleted };
    const cascaded = removedInCascade(ledger, before?.resource, before?.state, exchange);
    for (const finding of cascaded ? [] : statefulFindings({ exchange, before, link, sinceLink })) {
      if (!session.enabled(finding.check)) continue;
      const why = item.why ?? (before ? `a request on ${before.resource.path}, made by ${before.resource.createdBy}` : undefined);
      problems.push({
        ...finding,
        label: exchange.operation.id,
        status: exchange.response.status,
        ...(why ? { why } : {}),
        steps: [...steps, step],
      });
    }
    steps.push(step);
    ledger.observe(exchange);
    pathWrites.observe(exchange);
    for (const next of linksFrom(session.api, exchange, context)) {
      if (typeof next === 'string') {
        if (session.enabled(pagingConformance.name)) {
          problems.push({
            check: pagingConformance.name,
            label: exchange.operation.id,
            status: exchange.response.status,
            message: next,
            steps: [...steps],
          });
        }
      } else if (operations.has(next.target.id)) {
        pending.push(next);
        seenAt.set(next, pathWrites.now);
        const target = ledger.addressed(next.request.target);
        if (target) writesWhenSeen.set(next, target.writes);
      }
    }
  }
  return problems;
}
