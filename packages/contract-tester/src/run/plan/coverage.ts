import { CHECK } from '../../registry/checks.js';
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
  if (!context.phases.has('coverage') || !(context.answers || on(CHECK.negative_data_rejection, CHECK.missing_required_header))) return;
  const cases = coverageCases(session.api, operation, credentials, options.linkSupplied).filter(
    (item) => item.valid || session.enabled(item.check ?? CHECK.negative_data_rejection),
  );
  if (cases.length)
    plan.scenarios.push(fixed(`${operation.id}: coverage`, 'coverage', operation.id, cases, (item) => sendFixed(context, operation, item)));
}

/** The coverage phase of a path (`operation` one of its tested operations): OPTIONS, whose Allow lists its methods. */
export function planOptions(context: PlanContext, plan: Plan, path: string, operation: OperationModel): void {
  const { session, on } = context;
  if (!context.phases.has('coverage') || !on(CHECK.allow_header_conformance)) return;
  const { parts } = baseParts(session.api, operation, session.credentialsFor(operation));
  const { body: _body, ...request } = parts;
  const allowed = allowedMethods(session.api, path, on(CHECK.head_as_get));
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
