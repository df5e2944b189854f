import type { IncomingHttpHeaders } from 'node:http';

/** What the preconditions of a GET make of its successful answer (RFC 9110 §13.2.2). */
export type PreconditionOutcome = 'serve' | 'not_modified' | 'failed';

/** One entity-tag of a list: `W/` when weak, then the opaque tag with its quotes. */
const ENTITY_TAG = /(W\/)?("[^"]*")/g;

function listed(value: string): Array<{ weak: boolean; opaque: string }> {
  return [...value.matchAll(ENTITY_TAG)].map(([, weak, opaque]) => ({ weak: weak !== undefined, opaque: opaque! }));
}

function parse(etag: string): { weak: boolean; opaque: string } {
  return etag.startsWith('W/') ? { weak: true, opaque: etag.slice(2) } : { weak: false, opaque: etag };
}

/** A header sent once, or several times (joined as one list). */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Evaluates `If-Match` and `If-None-Match` in the order of RFC 9110 §13.2.2 for a GET (or HEAD)
 * whose answer would be 2xx with `etag` (undefined: the answer has none):
 * 1. `If-Match` (§13.1.1), when the answer has an ETag: true for `*` or a tag equal to it by the
 *    strong comparison (neither weak); false answers 412 and nothing else is looked at.
 * 2. `If-None-Match` (§13.1.2): false for `*` (the resource exists) or a tag equal to the ETag by
 *    the weak comparison; false answers 304.
 * Evaluated here rather than with Express's req.fresh (the `fresh` package), which treats a request
 * carrying `Cache-Control: no-cache` as never fresh: fetch() adds it to every conditional request,
 * yet a 304 is exactly the validation that no-cache asks for (RFC 9111 §5.2.1.4). There is no
 * Last-Modified here, so If-Unmodified-Since and If-Modified-Since are never evaluated.
 */
export function evaluatePreconditions(headers: IncomingHttpHeaders, etag: string | undefined): PreconditionOutcome {
  // Most requests carry neither.
  if (headers['if-match'] === undefined && headers['if-none-match'] === undefined) return 'serve';
  const current = etag === undefined ? undefined : parse(etag);
  const ifMatch = single(headers['if-match']);
  if (ifMatch !== undefined && current !== undefined) {
    const matches = ifMatch.trim() === '*' || (!current.weak && listed(ifMatch).some((tag) => !tag.weak && tag.opaque === current.opaque));
    if (!matches) return 'failed';
  }
  const ifNoneMatch = single(headers['if-none-match']);
  if (ifNoneMatch !== undefined) {
    const matches =
      ifNoneMatch.trim() === '*' || (current !== undefined && listed(ifNoneMatch).some((tag) => tag.opaque === current.opaque));
    if (matches) return 'not_modified';
  }
  return 'serve';
}
