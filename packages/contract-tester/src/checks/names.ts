/**
 * The checks, by name. The default ones follow from the spec and HTTP's requirements alone, and are
 * named as Schemathesis names the same checks. The others are stricter rules a project may hold its
 * own API to: a config file turns them on (see config.ts); none of them is on by default.
 */
export const DEFAULT_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'positive_data_acceptance',
  'missing_required_header',
  'unsupported_method',
  'allow_header_conformance',
  'use_after_free',
  'ensure_resource_availability',
  'ignored_auth',
] as const;

/** On only with --max-response-time (as in Schemathesis). */
export const TIMING_CHECKS = ['max_response_time'] as const;

/** Stricter rules, each off unless a config file turns it on (README, "Profiles"). */
export const PROFILE_CHECKS = [
  /** Headers every response carries, with these values (`Cache-Control: no-store`). */
  'required_response_headers',
  /** Headers no response carries (`X-Powered-By`). */
  'forbidden_response_headers',
  /** Every error answer (4xx, 5xx) is one schema's object, its status and code as the spec gives them. */
  'error_schema_conformance',
  /** Without valid credentials the answer is 401, whatever else is wrong with the request. */
  'auth_first',
  /** A create, a PUT or a PATCH answers with the fields it was sent. */
  'write_echo',
  /** HEAD is answered wherever GET is, as GET without the body; Allow lists it. */
  'head_as_get',
  /** Integers in the URL and numbers in a body are refused unless written canonically (`+1`, `01`, `1.0`). */
  'canonical_numbers',
  /** Text that is not UTF-8, a lone surrogate or NUL is refused. */
  'text_encoding',
  /** A body of a media type the operation does not take (or with another charset, or none) is refused. */
  'strict_media_types',
  /** Paths match exactly: a trailing slash, another case, a doubled slash or a segment more is refused. */
  'exact_paths',
  /** Every link followed from a success leads to a success. */
  'links_succeed',
  /** A read after a write answers what the write answered (same schema). */
  'read_back',
  /** A next page (x-link-header) repeats nothing of the page before. */
  'paging_conformance',
  /** A response with no documented content has no body. */
  'no_undocumented_body',
  /** The listing shows every resource the run created once, as it last was, and none it deleted. */
  'listing_audit',
  /** A resource deleted once is gone for DELETE too (404 or 410), not only for reads. */
  'delete_is_final',
  /** A valid write is never refused with 400, even where the operation documents 400 (a state the API is in is a 409's). */
  'valid_writes_accepted',
  /** A valid request is refused (4xx) only with the statuses listed: those the server's state decides (404, 409, …). */
  'state_refusals',
] as const;

export type DefaultCheck = (typeof DEFAULT_CHECKS)[number];
export type ProfileCheck = (typeof PROFILE_CHECKS)[number];
export type CheckName = DefaultCheck | ProfileCheck | (typeof TIMING_CHECKS)[number];

export const ALL_CHECKS: readonly CheckName[] = [...DEFAULT_CHECKS, ...TIMING_CHECKS, ...PROFILE_CHECKS];

export function isCheckName(name: string): name is CheckName {
  return (ALL_CHECKS as readonly string[]).includes(name);
}
