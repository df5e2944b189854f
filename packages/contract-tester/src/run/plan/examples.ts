import { exampleCases } from '../../generate/examples.js';
import { fixed, type Plan, type PlanContext } from './scenario.js';
import { sendFixed } from './senders.js';
import type { OperationTarget } from './target.js';

/** The examples phase of an operation: each example the spec gives, sent once. */
export function planExamples(context: PlanContext, plan: Plan, { operation, credentials, options }: OperationTarget): void {
  if (!context.phases.has('examples') || !context.answers) return;
  const { cases, warnings } = exampleCases(context.session.api, operation, credentials, options.linkSupplied);
  plan.warnings.push(...warnings);
  if (cases.length)
    plan.scenarios.push(fixed(`${operation.id}: examples`, 'examples', operation.id, cases, (item) => sendFixed(context, operation, item)));
}
