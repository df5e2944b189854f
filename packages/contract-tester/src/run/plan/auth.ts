import { authFirst as authFirstCheck } from '../../checks/case/auth-first.js';
import { ignoredAuth as ignoredAuthCheck } from '../../checks/case/ignored-auth.js';
import fc from 'fast-check';
import type { NegativeCase } from '../../generate/negative-requests.js';
import { invalidCredentials, unknownPathCases, withoutValidCredentials, wrongMethodCases } from '../../generate/request-variants.js';
import { buildRequest, positiveParts, type RequestParts } from '../../generate/requests.js';
import { needsCredentials, type OperationModel } from '../../spec/model.js';
import type { Problem, Step } from '../../stateful/session.js';
import { property, type Plan, type PlanContext, type Scenario } from './scenario.js';
import { creatorsOf } from '../../stateful/sequences.js';
import { makeResource, send, unmakeable } from './senders.js';
import { forgeOptions, linkOptions, type OperationTarget } from './target.js';

/**
 * The fuzzing phase's credential checks of an operation under test: without credentials (and with
 * forged ones) nothing succeeds, and 401 comes before any other refusal, whatever else is wrong
 * with the request (`anyRequest`: every kind the fuzzing phase makes).
 */
export function planAuth(context: PlanContext, plan: Plan, target: OperationTarget, anyRequest: fc.Arbitrary<NegativeCase>[]): void {
  const { session, on } = context;
  const { operation, credentials, options, forge } = target;
  if (!needsCredentials(operation)) return;
  if (on(ignoredAuthCheck.name)) plan.scenarios.push(ignoredAuth(context, operation));
  if (!on(authFirstCheck.name)) return;
  const wrongMethod = wrongMethodCases(session.api, operation.path, () => ({ kind: 'none' }), options);
  const everything = fc.oneof(
    ...anyRequest,
    unknownPathCases(session.api, operation, credentials, true, options),
    ...(wrongMethod ? [wrongMethod] : []),
  );
  plan.scenarios.push(authFirst(context, operation, withoutValidCredentials(operation, everything, forge)));
}

/** 401 first needs no credentials: it runs for an operation the tester cannot authenticate, and so skips. */
export function planAuthOfSkipped(context: PlanContext, plan: Plan, operation: OperationModel): void {
  const { session, on } = context;
  if (!context.phases.has('fuzzing') || !on(authFirstCheck.name) || !needsCredentials(operation) || operation.unsupported) return;
  if (unmakeable(session, operation)) return;
  const requests = positiveParts(operation, session.api.basePath, { kind: 'none' }, linkOptions(session, operation)).map((parts) => ({
    request: buildRequest(parts),
    why: 'valid',
  }));
  plan.scenarios.push(authFirst(context, operation, withoutValidCredentials(operation, requests, forgeOptions(session))));
}

function authFirst(context: PlanContext, operation: OperationModel, cases: fc.Arbitrary<NegativeCase>): Scenario {
  return property(`${operation.id}: 401 first`, 'fuzzing', operation.id, 2, cases, (value) =>
    send(context.session, 'auth-first', operation, value),
  );
}

/**
 * ignored_auth: a request of the operation (on a resource just made, where a create makes what it
 * acts on) sent without credentials and with forged ones: neither may succeed. No credential of
 * any alternative scheme goes with them, so no other scheme authenticates them.
 */
function ignoredAuth({ session, selected }: PlanContext, operation: OperationModel): Scenario {
  const { api } = session;
  const creator = creatorsOf(session, operation, selected)[0];
  const parts = positiveParts(operation, api.basePath, session.credentialsFor(operation), linkOptions(session, operation));
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
