/**
 * The registry of checks: each check's name, when it is on, and what it holds an API to. The default
 * ones follow from the spec and HTTP's requirements alone, and are named as Schemathesis names the
 * same checks; `max_response_time` is on with --max-response-time; the profile's are stricter rules
 * a project may hold its own API to, each off unless a config turns it on (config.ts). The planner,
 * the config, the CLI (--checks, --dry-run) and the README's tables all read this one list.
 */
const REGISTRY = {
  not_a_server_error: { on: 'default', description: 'no 5xx (unless documented as the only answer) and always an answer' },
  status_code_conformance: { on: 'default', description: 'a status the operation documents, exactly, as a range or as default' },
  content_type_conformance: { on: 'default', description: 'a Content-Type documented for the status' },
  response_headers_conformance: { on: 'default', description: 'the documented headers present where required and valid' },
  response_schema_conformance: { on: 'default', description: "a JSON or text body valid against its status's schema" },
  negative_data_rejection: { on: 'default', description: 'a request that breaks the spec in one place is refused (4xx)' },
  positive_data_acceptance: { on: 'default', description: 'a valid request is not refused as sent (400, 401, 405, 413, 415, …)' },
  missing_required_header: { on: 'default', description: 'a request without a required header parameter is refused (4xx)' },
  unsupported_method: { on: 'default', description: 'a method the path does not have is refused, a 405 with Allow' },
  allow_header_conformance: { on: 'default', description: "the Allow of a 405 or OPTIONS lists the path's methods" },
  use_after_free: { on: 'default', description: 'a deleted resource is not served again' },
  ensure_resource_availability: { on: 'default', description: 'a resource a create made is found until deleted' },
  ignored_auth: { on: 'default', description: 'an operation that requires credentials does not succeed without valid ones' },
  max_response_time: { on: 'timing', description: 'an answer within --max-response-time' },
  required_response_headers: { on: 'profile', description: 'every response carries these headers with these values' },
  forbidden_response_headers: { on: 'profile', description: 'no response carries these headers' },
  error_schema_conformance: { on: 'profile', description: "every error is one schema's object, its status and code as the spec gives" },
  auth_first: { on: 'profile', description: 'without valid credentials the answer is 401, whatever else is wrong' },
  write_echo: { on: 'profile', description: 'a create, PUT or PATCH answers with the fields it was sent' },
  head_as_get: { on: 'profile', description: 'HEAD is answered wherever GET is, as GET without the body' },
  canonical_numbers: { on: 'profile', description: 'numbers not written canonically (+1, 01, 1.0) are refused' },
  text_encoding: { on: 'profile', description: 'text that is not UTF-8, a lone surrogate or NUL is refused' },
  strict_media_types: { on: 'profile', description: 'a body of a media type the operation does not take is refused' },
  exact_paths: { on: 'profile', description: 'paths match exactly: another spelling is refused' },
  links_succeed: { on: 'profile', description: 'every link followed from a success leads to a success' },
  read_back: { on: 'profile', description: 'a read after a write answers what the write answered' },
  paging_conformance: { on: 'profile', description: 'a next page repeats nothing of the page before' },
  no_undocumented_body: { on: 'profile', description: 'a response with no documented content has no body' },
  listing_audit: { on: 'profile', description: 'the listing shows each resource the run created, as it last was, and none it deleted' },
  delete_is_final: { on: 'profile', description: 'a second DELETE of a deleted resource does not succeed' },
  valid_writes_accepted: { on: 'profile', description: 'a valid write is never refused with 400, documented or not' },
  state_refusals: { on: 'profile', description: 'a valid request is refused (4xx) only with the statuses listed' },
} as const satisfies Record<string, { on: 'default' | 'timing' | 'profile'; description: string }>;

type Registry = typeof REGISTRY;
export type CheckName = keyof Registry;
type NamesOn<On> = { [Name in CheckName]: Registry[Name]['on'] extends On ? Name : never }[CheckName];
export type DefaultCheck = NamesOn<'default'>;
export type ProfileCheck = NamesOn<'profile'>;

export const ALL_CHECKS = Object.keys(REGISTRY) as CheckName[];
const namesOn = <On extends Registry[CheckName]['on']>(on: On) =>
  ALL_CHECKS.filter((name) => REGISTRY[name].on === on) as Array<NamesOn<On>>;
export const DEFAULT_CHECKS: readonly DefaultCheck[] = namesOn('default');
export const TIMING_CHECKS = namesOn('timing');
export const PROFILE_CHECKS: readonly ProfileCheck[] = namesOn('profile');

/** Each check's name, for code to name a check through the registry. */
export const CHECK = Object.fromEntries(ALL_CHECKS.map((name) => [name, name])) as { readonly [Name in CheckName]: Name };

export function isCheckName(name: string): name is CheckName {
  return Object.hasOwn(REGISTRY, name);
}

/** What a check holds an API to, in a line. */
export function describeCheck(name: CheckName): string {
  return REGISTRY[name].description;
}
