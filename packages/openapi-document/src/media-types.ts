const JSON_ESSENCE = /^(?:application|text)\/(?:[\w.+-]+\+)?json$/i;

/** A media type without its parameters, trimmed and lower-cased: `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether a media type is JSON: application/json, text/json (still sent by some servers), or any
 * type with the structured syntax suffix +json (RFC 6839: application/problem+json,
 * application/merge-patch+json), whatever its parameters.
 */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_ESSENCE.test(mediaTypeEssence(mediaType));
}
