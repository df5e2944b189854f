import type { ProfileSettings } from '../profile.js';

/**
 * When a check is on: by default (the spec and HTTP require it), with --max-response-time, or
 * when a profile turns it on (a stricter rule a project holds its own API to).
 */
export type CheckOn = 'default' | 'timing' | 'profile';

/** What every check is: its name, when it is on, and what it holds an API to, in a line. */
export interface CheckDefinition<Name extends string = string> {
  readonly name: Name;
  readonly on: CheckOn;
  readonly description: string;
  /** It judges an answer's form, not what the answer says of the request: it holds of a 429 (a rate limit) too. */
  readonly judgesForm?: boolean;
  /** It has something to say of the answer to a valid request: valid requests are sent while it is on. */
  readonly readsValidAnswers?: boolean;
  /**
   * How a config's setting of a profile check (`true`, or its settings) reads into the profile;
   * a check without it takes true or false.
   */
  readonly settings?: (setting: unknown, where: string) => ProfileSettings;
}

/**
 * A check as one definition: the named function that decides it beside its name, when it is on
 * and its description. The registry (registry/checks.ts) is assembled from these; the literal
 * types of `name` and `on` are kept, for the registry to derive its names from.
 */
export function defineCheck<const Definition extends CheckDefinition>(definition: Definition): Definition {
  return definition;
}
