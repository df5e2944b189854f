/**
 * Whether the field `name` (lower case) appears at most once among the request's raw header lines.
 * A field that is not a list may be sent only once (RFC 9110 §5.3). Node keeps the first of some
 * repeated fields (Authorization, Content-Type, …) and drops the rest without a word, while a proxy
 * in front may have acted on another: where that matters, a repeat is refused instead.
 */
export function sentOnce(rawHeaders: readonly string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const field = rawHeaders[i]!;
    if (field.length === name.length && field.toLowerCase() === name && ++seen > 1) return false;
  }
  return true;
}
