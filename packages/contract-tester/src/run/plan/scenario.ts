import type fc from 'fast-check';
import type { CheckName } from '../../registry/checks.js';
import type { OperationModel } from '../../spec/model.js';
import type { Problem, Session } from '../../stateful/session.js';

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

/** What every phase's planner is given: the session, the operations selected, and what is on. */
export interface PlanContext {
  session: Session;
  selected: OperationModel[];
  phases: ReadonlySet<Phase>;
  /** Whether any of these checks is on. */
  on: (...checks: CheckName[]) => boolean;
  /** Whether answers to valid requests are judged by any check that is on. */
  answers: boolean;
}

export function property<T>(
  name: string,
  phase: Phase,
  group: string,
  weight: number,
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<Problem[]>,
): Scenario {
  return { name, phase, group, weight, arbitrary, run: (value) => run(value as T) };
}

export function fixed<T>(name: string, phase: Phase, group: string, cases: T[], run: (value: T) => Promise<Problem[]>): Scenario {
  return { name, phase, group, weight: 0, cases, run: (value) => run(value as T) };
}
