/**
 * A project's stricter rules for its own API, beyond what the spec and HTTP require: which profile
 * checks are on, and what they need to know. Read from a JSON config file (--config); by default
 * none is on.
 */
export interface Profile<Check extends string = string> {
  /** What the config calls itself, printed at the start of a run. */
  name?: string;
  /** The spec to test, relative to the config file (when --spec is not given). */
  spec?: string;
  /** The profile checks it turns on (by the registry's names: config.ts reads them). */
  checks: ReadonlySet<Check>;
  /** required_response_headers: lower-cased name to the exact value. */
  requiredHeaders: Record<string, string>;
  /** forbidden_response_headers: lower-cased names. */
  forbiddenHeaders: string[];
  /** error_schema_conformance. */
  errorSchema?: ErrorSchemaRule;
  /** auth_first: forged bearer tokens look like the API's own (`psk_` and 43 characters). */
  forgedTokenPrefix?: string;
  /** Paths outside the spec that may succeed (health probes, the published spec), as regular expressions. */
  publicPaths: RegExp[];
  /** Server errors that may answer any request, before routing (503 while shutting down). */
  anyRequestStatuses: number[];
  /** listing_audit: the most pages it reads. */
  auditPages: number;
  /** state_refusals: the only client errors a valid request may get (none when the check is off). */
  stateRefusals?: number[];
  /** An operation the run got no success from fails the run (otherwise a warning). */
  failOnNotExercised: boolean;
}

export interface ErrorSchemaRule {
  /** JSON pointer of the schema every error body keeps (`/components/schemas/Error`). */
  schema: string;
  /** The media type of error bodies. */
  mediaType: string;
  /** The property that repeats the HTTP status, if any. */
  statusProperty?: string;
  /** The property with the error's code, and the schema listing the codes (a oneOf of consts with x-http-status). */
  codeProperty?: string;
  codes?: string;
}

export const EMPTY_PROFILE: Profile<never> = {
  checks: new Set<never>(),
  requiredHeaders: {},
  forbiddenHeaders: [],
  publicPaths: [],
  anyRequestStatuses: [],
  auditPages: 1000,
  failOnNotExercised: false,
};

/** What a profile check's settings set in a profile. */
export type ProfileSettings = Partial<Omit<Profile, 'checks'>>;
