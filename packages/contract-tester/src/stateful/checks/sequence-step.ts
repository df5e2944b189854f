import { splitTarget } from '../../generate/requests.js';
import type { CheckDefinition } from '../../checks/define.js';
import type { Exchange, LinkStep } from '../links.js';
import type { Resource } from '../resources.js';

/** What the sequence has done, since a link was seen, to the path that link leads to. */
export interface SinceLink {
  /** A write answered 2xx there, or on the resource the ledger tracks there. */
  written: boolean;
  /** A DELETE answered 2xx there or above it. */
  deleted: boolean;
  /** A DELETE answered 2xx on what the link came from (what its source made or read), or above it. */
  sourceDeleted: boolean;
}

/** One step of a sequence as its checks read it: the exchange, and what the sequence knew before it. */
export interface SequenceStep {
  exchange: Exchange;
  /** The resource the sequence made that the request addressed, as it was before the request. */
  before: { resource: Resource; state: Resource['state']; last: Resource['last'] } | undefined;
  /** The link the request followed, if it followed one. */
  link: LinkStep | undefined;
  sinceLink: SinceLink;
}

/** A check of a sequence's step: its definition, and the function that decides it, each problem in words. */
export interface StepCheck extends CheckDefinition {
  readonly check: (step: SequenceStep) => string[];
}

/** `METHOD target → status`, the head of a step's findings. */
export function whereOf({ request, response }: Exchange): string {
  return `${request.method.toUpperCase()} ${request.target} → ${response.status}`;
}

/** Whether the request addressed the resource itself (its path), not something below it. */
export function addressesExactly({ exchange, before }: SequenceStep): boolean {
  return before !== undefined && splitTarget(exchange.request.target)[0] === before.resource.path;
}
