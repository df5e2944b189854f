import type { ExpectedRowVersions } from '../storage/resources.js';

/**
 * A pet's strong ETag (RFC 9110 §8.8.3): `"<id>-<version>"`. The version tells one state of the pet
 * from the next; the id keeps one pet's tag from ever matching another pet.
 */
export function petETag(id: number, version: number): string {
  return `"${id}-${version}"`;
}

/** A versioned row's strong ETag, made as a pet's is: its key and its version (generated/handlers/). */
export const rowETag: (key: number, version: number) => string = petETag;

/** One entity-tag of a list: `W/` when weak, then the opaque tag between its quotes. */
const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/**
 * The versions of pet `id` that an `If-Match` value accepts (RFC 9110 §13.1.1), as storage takes
 * them: undefined when none was sent or for `*` (any pet that exists); otherwise the version of each
 * tag listed that is this pet's, compared strongly (a weak tag never matches, nor does another pet's
 * tag or one this service did not make), so possibly none. The spec's pattern has already refused a
 * value that is neither `*` nor a list of entity-tags (400).
 */
export function expectedVersions(id: number, ifMatch: string | undefined): ExpectedRowVersions {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const prefix = `${id}-`;
  const versions: number[] = [];
  for (const [, weak, opaque] of ifMatch.matchAll(ENTITY_TAG)) {
    if (weak || !opaque!.startsWith(prefix)) continue;
    const version = opaque!.slice(prefix.length);
    // Only the canonical decimal petETag writes: "1-01" was never this pet's tag.
    if (/^[1-9]\d{0,15}$/.test(version) && Number.isSafeInteger(Number(version))) versions.push(Number(version));
  }
  return versions;
}
