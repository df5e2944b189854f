import { VALID_ANSWER_CHECKS, type CheckName } from '../registry/checks.js';
import { checkDeadline, DeadlineReached } from '../deadline.js';
import type { OperationModel } from '../spec/model.js';
import type { Session } from '../stateful/session.js';
import { planAuth, planAuthOfSkipped } from './plan/auth.js';
import { planCoverage, planOptions } from './plan/coverage.js';
import { planExamples } from './plan/examples.js';
import { planFuzzing, planWrongMethods } from './plan/fuzzing.js';
import type { Phase, Plan, PlanContext } from './plan/scenario.js';
import { unmakeable } from './plan/senders.js';
import { statefulScenarios } from './plan/stateful.js';
import { operationTarget } from './plan/target.js';

export { PHASES, type Phase, type Plan, type Scenario } from './plan/scenario.js';

/**
 * The scenarios of the operations under test, all made from the spec and the checks that are on:
 * per operation its examples, its boundaries, valid requests, one property per rule an invalid
 * request can break, and requests without valid credentials; per path, the methods it does not
 * have; sequences that follow links and what creates make; each create's lifecycle.
 */
export function planScenarios(session: Session, selected: OperationModel[], phases: ReadonlySet<Phase>): Plan {
  const progress: Progress = { plan: { scenarios: [], skipped: [], warnings: [...session.api.warnings], tested: [] } };
  const on = (...checks: CheckName[]) => checks.some((check) => session.enabled(check));
  const context: PlanContext = {
    session,
    selected,
    phases,
    on,
    answers: on(...VALID_ANSWER_CHECKS),
  };
  try {
    return planAll(context, progress);
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

/** Every phase's planners, operation by operation, then path by path, then the stateful phase. */
function planAll(context: PlanContext, progress: Progress): Plan {
  const { plan } = progress;
  for (const operation of context.selected) {
    progress.operation = operation;
    checkDeadline();
    planOperation(context, plan, operation);
  }
  delete progress.operation;
  for (const path of [...new Set(plan.tested.map(({ path }) => path))]) {
    checkDeadline();
    const operation = plan.tested.find((candidate) => candidate.path === path)!;
    planOptions(context, plan, path, operation);
    planWrongMethods(context, plan, path, operation);
  }
  if (context.phases.has('stateful')) plan.scenarios.push(...statefulScenarios(context.session, plan.tested));
  return plan;
}

/**
 * The scenarios of one operation: per phase its examples, its boundaries, valid requests, one
 * property per rule an invalid request can break, and requests without valid credentials; or why
 * it is skipped.
 */
function planOperation(context: PlanContext, plan: Plan, operation: OperationModel): void {
  const { session } = context;
  const authentication = session.client.credentials.forOperation(operation);
  const reason =
    operation.unsupported ?? (authentication.kind === 'impossible' ? authentication.reason : undefined) ?? unmakeable(session, operation);
  if (reason) {
    const noCredentials = !operation.unsupported && authentication.kind === 'impossible';
    plan.skipped.push({ operation: operation.id, reason, ...(noCredentials ? { credentials: true as const } : {}) });
    planAuthOfSkipped(context, plan, operation);
    return;
  }
  plan.tested.push(operation);
  warnUnmadeBodies(plan, operation);
  const target = operationTarget(session, operation);
  planExamples(context, plan, target);
  planCoverage(context, plan, target);
  if (!context.phases.has('fuzzing')) return;
  const anyRequest = planFuzzing(context, plan, target);
  planAuth(context, plan, target, anyRequest);
}

/** A warning for the media types of the operation's body that the tester does not write. */
function warnUnmadeBodies(plan: Plan, operation: OperationModel): void {
  const unmade = (operation.body?.media ?? []).filter(({ kind }) => !kind).map(({ mediaType }) => mediaType);
  if (!unmade.length) return;
  const made = operation.body!.media.filter(({ kind }) => kind).map(({ mediaType }) => mediaType);
  plan.warnings.push(
    `${operation.id}: its ${unmade.join(' and ')} bodies are not made (the tester does not write them); tested with ${made.join(' and ')}`,
  );
}
