/**
 * The run's hard time budget (--max-time) as seen from inside generation. fast-check's filters loop
 * until a value passes, synchronously, so no timer can stop one that never passes: the predicates
 * ask here instead, and the error unwinds the generation to the runner or the planner, which stop
 * there. One budget per process, so it is module state rather than an argument of every arbitrary.
 */
export class DeadlineReached extends Error {
  constructor() {
    super('--max-time reached');
  }
}

let deadline: number | undefined;

/** From now on generation stops at `at` (a `performance.now()` time); undefined lifts the limit. */
export function setGenerationDeadline(at: number | undefined): void {
  deadline = at;
}

/**
 * For a `catch` that turns a generator's error into "no value": the budget's end is not such an
 * error, and must reach the planner or the runner, which stop there.
 */
export function rethrowDeadline(error: unknown): void {
  if (error instanceof DeadlineReached) throw error;
}

/** Throws DeadlineReached once the budget is spent. */
export function checkDeadline(): void {
  if (deadline !== undefined && performance.now() > deadline) throw new DeadlineReached();
}
