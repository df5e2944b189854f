import type { Principal } from '../storage/api-keys.js';
import type { MaybePromise } from '../storage/resources.js';

/** What a rule knows of the request beyond its input. */
export interface RuleContext {
  /** The current instant (HandlerDeps' clock). */
  now: Date;
  /** Who is calling. */
  principal: Principal;
}

/**
 * The business rules of a stored schema (src/rules/<schema>.ts), hooks the generated handlers of its
 * CRUD operations call. Each is optional; a rule refuses by raising apiError.
 */
export interface ResourceRules<Written> {
  /** Before a create stores its input: check it (raise to refuse) and return what is stored. */
  beforeCreate?(input: Written, context: RuleContext): MaybePromise<Written>;
}
