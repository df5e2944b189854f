import { allowHeaderConformance } from '../../checks/case/allow-header-conformance.js';
import { headAsGet } from '../../checks/response/head-as-get.js';
import { missingRequiredHeader } from '../../checks/case/missing-required-header.js';
import { negativeDataRejection } from '../../checks/case/negative-data-rejection.js';
import { rejectionCheck } from '../../registry/checks.js';
import { coverageCases } from '../../generate/coverage.js';
import { baseParts } from '../../generate/examples.js';
import { allowedMethods } from '../../generate/request-variants.js';
import { buildRequest } from '../../generate/requests.js';
import type { OperationModel } from '../../spec/model.js';
import { fixed, type Plan, type PlanContext } from './scenario.js';
import { send, sendFixed } from './senders.js';
import type { OperationTarget } from './target.js';

/** The coverage phase of an operation: its boundaries and each constraint broken once, each case sent once. */
export function planCoverage(context: PlanContext, plan: Plan, { operation, credentials, options }: OperationTarget): void {
  const { session, on } = context;
  if (!context.phases.has('coverage') || !(context.answers || on(negativeDataRejection.name, missingRequiredHeader.name))) return;
  const cases = coverageCases(session.api, operation, credentials, options.linkSupplied).filter(
    (item) => item.valid || session.enabled(rejectionCheck(item.rule)),
  );
  if (cases.length)
    plan.scenarios.push(fixed(`${operation.id}: coverage`, 'coverage', operation.id, cases, (item) => sendFixed(context, operation, item)));
}

/** The coverage phase of a path (`operation` one of its tested operations): OPTIONS, whose Allow lists its methods. */
export function planOptions(context: PlanContext, plan: Plan, path: string, operation: OperationModel): void {
  const { session, on } = context;
  if (!context.phases.has('coverage') || !on(allowHeaderConformance.name)) return;
  const { parts } = baseParts(session.api, operation, session.credentialsFor(operation));
  const { body: _body, ...request } = parts;
  const allowed = allowedMethods(session.api, path, on(headAsGet.name));
  plan.scenarios.push(
    fixed(`${path}: OPTIONS`, 'coverage', path, [{ ...request, method: 'OPTIONS' }], async (item) =>
      send(
        session,
        'options',
        operation,
        { request: buildRequest(item), why: 'OPTIONS lists the methods of the path in Allow, if it answers' },
        allowed,
      ),
    ),
  );
}
