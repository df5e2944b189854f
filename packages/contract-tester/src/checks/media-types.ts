import type { DocumentedResponse, ObservedResponse } from './response-check.js';

/** A Content-Type's media type, lower-cased, without parameters. */
export const mediaTypeOf = (contentType: unknown) =>
  typeof contentType === 'string' ? contentType.split(';')[0]!.trim().toLowerCase() : undefined;

/** Whether a Content-Type header is a well-formed media type (RFC 9110 §8.3.1). */
export function wellFormedMediaType(contentType: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*(;.*)?$/.test(contentType.trim());
}

/** Whether a documented media type (maybe a range: `image/*`, `*\/*`) covers an actual one. */
export function covers(documented: string, actual: string): boolean {
  const [type, subtype] = documented.split(';')[0]!.trim().toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

/**
 * The documented content a response's Content-Type selects, by its exact media type first, then by
 * a range that covers it; undefined when the Content-Type is absent, malformed or undocumented.
 */
export function documentedContent(
  documented: DocumentedResponse,
  response: ObservedResponse,
): { mediaType: string; actual: string; schema: unknown } | undefined {
  const content = documented.value.content ?? {};
  const mediaTypes = Object.keys(content);
  const contentType = response.headers['content-type'];
  if (typeof contentType !== 'string' || !wellFormedMediaType(contentType)) return undefined;
  const actual = mediaTypeOf(contentType)!;
  const mediaType =
    mediaTypes.find((type) => type.split(';')[0]!.trim().toLowerCase() === actual) ?? mediaTypes.find((type) => covers(type, actual));
  return mediaType === undefined ? undefined : { mediaType, actual, schema: content[mediaType]!.schema };
}
