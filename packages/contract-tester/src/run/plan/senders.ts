import fc from 'fast-check';
import type { CaseKind } from '../../checks/expectations.js';
import { rejectionCheck } from '../../registry/checks.js';
import { baseParts, type FixedCase } from '../../generate/examples.js';
import type { NegativeCase } from '../../generate/negative-requests.js';
import { buildRequest, positiveParts, type RequestParts } from '../../generate/requests.js';
import { UnmakeableValue } from '../../generate/valid-values.js';
import type { OperationModel } from '../../spec/model.js';
import { ResourceLedger } from '../../stateful/resources.js';
import { creatorsOf, onResource } from '../../stateful/sequences.js';
import type { Problem, Session, Step } from '../../stateful/session.js';
import { property, type PlanContext, type Scenario } from './scenario.js';

/** Whether an operation's valid requests can be made at all (a schema past a recursion cut cannot). */
export function unmakeable(session: Session, operation: OperationModel): string | undefined {
  try {
    fc.sample(positiveParts(operation, session.api.basePath, session.credentialsFor(operation)), { numRuns: 3, seed: 1 });
    return undefined;
  } catch (error) {
    if (error instanceof UnmakeableValue) return error.message;
    throw error;
  }
}

/** What a create made for a case: the change that points the case's request at it, and the create's step. */
export interface Made {
  problems: Problem[];
  change?: (parts: RequestParts) => RequestParts;
  steps: Step[];
}

/** Sends a create and learns what it made. */
export async function makeResource(
  session: Session,
  creator: OperationModel,
  create: RequestParts,
  operation: OperationModel,
): Promise<Made> {
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

/** Sends a case of a kind (an invalid request, one without credentials...) and returns its problems. */
export async function send(
  session: Session,
  kind: CaseKind,
  operation: OperationModel,
  { request, why, rule }: NegativeCase,
  allowed?: string[],
  earlier: Step[] = [],
): Promise<Problem[]> {
  const sent = await session.send(
    { kind, operation, request, why, ...(rule ? { rejectionCheck: rejectionCheck(rule) } : {}), ...(allowed ? { allowed } : {}) },
    earlier,
  );
  return sent.problems;
}

/** Sends a valid request made of parts, with the value of its body for the checks that compare it. */
export async function sendParts(
  session: Session,
  operation: OperationModel,
  parts: RequestParts,
  earlier: Step[] = [],
): Promise<Problem[]> {
  const sent = await session.send(
    {
      kind: 'positive',
      operation,
      request: buildRequest(parts),
      ...(parts.body && 'value' in parts.body ? { bodyValue: parts.body.value } : {}),
    },
    earlier,
  );
  return sent.problems;
}

/** Sends an invalid case, on the resource a create just made when there is one and the case can be moved there. */
export function sendNegative(session: Session, operation: OperationModel) {
  return (value: NegativeCase, made?: Made): Promise<Problem[]> =>
    send(
      session,
      'negative',
      operation,
      made?.change && value.rebuild ? { ...value, request: value.rebuild(made.change) } : value,
      undefined,
      made?.steps,
    );
}

/**
 * A fixed case of an operation on a resource goes to one a create just made (the path parameter
 * whose value the case tries, if it tries one, kept).
 */
export async function sendFixed({ session, selected }: PlanContext, operation: OperationModel, item: FixedCase): Promise<Problem[]> {
  const creator = creatorsOf(session, operation, selected)[0];
  const made = creator
    ? await makeResource(session, creator, baseParts(session.api, creator, session.credentialsFor(creator)).parts, operation)
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
      ...(item.valid ? {} : { rejectionCheck: rejectionCheck(item.rule) }),
    },
    made?.steps,
  );
  return [...(made?.problems ?? []), ...sent.problems];
}

/**
 * Cases of an operation on a resource: a third of them on one a create just made (the rest on
 * made-up ids), so that what the operation does to an existing resource is tested too; a third
 * only, since creates are the costliest requests a server answers.
 */
function onMade<T>(
  { session, selected }: PlanContext,
  operation: OperationModel,
  cases: fc.Arbitrary<T>,
  run: (value: T, made?: Made) => Promise<Problem[]>,
) {
  const creator = creatorsOf(session, operation, selected)[0];
  if (!creator)
    return {
      arbitrary: cases.map((value) => [undefined, value] as const),
      run: ([, value]: readonly [unknown, T]) => run(value),
      requestsPerCase: 1,
    };
  const creates = fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: positiveParts(creator, session.api.basePath, session.credentialsFor(creator)) },
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
}

/** A fuzzing property of an operation whose cases go in part to resources creates just made (see onMade). */
export function resourceProperty<T>(
  context: PlanContext,
  name: string,
  operation: OperationModel,
  weight: number,
  cases: fc.Arbitrary<T>,
  run: (value: T, made?: Made) => Promise<Problem[]>,
): Scenario {
  const made = onMade(context, operation, cases, run);
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
}
