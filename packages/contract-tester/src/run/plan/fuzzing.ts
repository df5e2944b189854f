import { allowHeaderConformance } from '../../checks/case/allow-header-conformance.js';
import { exactPaths } from '../../checks/response/exact-paths.js';
import { headAsGet as headAsGetCheck } from '../../checks/response/head-as-get.js';
import { unsupportedMethod } from '../../checks/response/unsupported-method.js';
import type fc from 'fast-check';
import { MISSING_HEADER, RULES } from '../../generate/invalid-values.js';
import { rejectionCheck } from '../../registry/checks.js';
import { BODY_RULES, negativeCases, type NegativeCase, type NegativeRule } from '../../generate/negative-requests.js';
import { allowedMethods, unknownPathCases, wrongMethodCases } from '../../generate/request-variants.js';
import { buildRequest, positiveParts, type RequestParts } from '../../generate/requests.js';
import type { OperationModel } from '../../spec/model.js';
import { property, type Plan, type PlanContext } from './scenario.js';
import { resourceProperty, send, sendNegative, sendParts } from './senders.js';
import type { OperationTarget } from './target.js';

/**
 * The fuzzing phase of an operation, but for its credentials (auth.ts): valid requests, HEAD as GET,
 * one property per rule an invalid request can break, and paths spelt wrong. Returns every kind of
 * request it makes, for the auth checks to send without credentials.
 */
export function planFuzzing(context: PlanContext, plan: Plan, target: OperationTarget): fc.Arbitrary<NegativeCase>[] {
  const { session, on } = context;
  const { operation, credentials, options } = target;
  const positive = positiveParts(operation, session.api.basePath, credentials, options);
  if (context.answers) {
    plan.scenarios.push(
      resourceProperty(context, `${operation.id}: valid requests`, operation, 6, positive, (parts, made) =>
        sendParts(session, operation, made?.change ? made.change(parts) : parts, made?.steps),
      ),
    );
  }
  if (on(headAsGetCheck.name) && operation.method === 'get') plan.scenarios.push(headAsGet(context, operation, positive));
  const anyRequest = [
    positive.map((parts): NegativeCase => ({ request: buildRequest(parts), why: 'valid' })),
    ...planNegative(context, plan, target),
  ];
  if (on(exactPaths.name)) {
    plan.scenarios.push(
      property(
        `${operation.id}: unknown path`,
        'fuzzing',
        operation.id,
        1,
        unknownPathCases(session.api, operation, credentials, false, options),
        (value) => send(session, 'unknown-path', operation, value),
      ),
    );
  }
  return anyRequest;
}

function headAsGet(context: PlanContext, operation: OperationModel, positive: fc.Arbitrary<RequestParts>) {
  return property(`${operation.id}: HEAD as GET`, 'fuzzing', operation.id, 1, positive, async (parts) => {
    const sent = await context.session.send({
      kind: 'head',
      operation,
      request: buildRequest({ ...parts, method: 'HEAD' }),
      why: 'HEAD must be answered as GET is, without the body (RFC 9110 §9.3.2)',
    });
    return sent.problems;
  });
}

/** One property per rule an invalid request of the operation can break, whose check is on: the cases of each. */
function planNegative(
  context: PlanContext,
  plan: Plan,
  { operation, credentials, options }: OperationTarget,
): fc.Arbitrary<NegativeCase>[] {
  const { session, on } = context;
  const made: fc.Arbitrary<NegativeCase>[] = [];
  for (const rule of [...RULES, ...BODY_RULES] as NegativeRule[]) {
    if (!on(rejectionCheck(rule)) && !(rule === 'missing required' && on(rejectionCheck(MISSING_HEADER)))) continue;
    const cases = negativeCases(session.api, operation, rule, credentials, options);
    if (!cases) continue;
    made.push(cases);
    plan.scenarios.push(resourceProperty(context, `${operation.id}: ${rule}`, operation, 1, cases, sendNegative(session, operation)));
  }
  return made;
}

/** The fuzzing phase of a path (`operation` one of its tested operations): the methods it does not have. */
export function planWrongMethods(context: PlanContext, plan: Plan, path: string, operation: OperationModel): void {
  const { session, on } = context;
  if (!context.phases.has('fuzzing') || !on(unsupportedMethod.name, allowHeaderConformance.name)) return;
  const cases = wrongMethodCases(session.api, path, (candidate) => session.credentialsFor(candidate));
  const allowed = allowedMethods(session.api, path, on(headAsGetCheck.name));
  if (cases)
    plan.scenarios.push(
      property(`${path}: methods not allowed`, 'fuzzing', path, 1, cases, (value) => send(session, 'method', operation, value, allowed)),
    );
}
