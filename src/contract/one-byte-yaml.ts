import { CORE_SCHEMA, load } from 'js-yaml';

/** Latin-1 characters of which one, absent from a text, can stand in for its other characters. */
const MARKERS = ['\u00a4', '\u00b6', '\u00a6', '\u00ac', '\u00b8', '\u00be'];

/** A character beyond Latin-1 (a whole code point). */
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/gu;

/**
 * Parses YAML (the YAML 1.2 core schema, duplicate keys an error) into values whose strings V8 keeps
 * in its one-byte form wherever they fit in Latin-1, as they would from a text with no character
 * beyond U+00FF.
 *
 * Why: V8 keeps a slice of a string in the representation of the whole, so one `−` or `…` anywhere in
 * openapi.yaml makes every name, path and key parsed from it a two-byte string. Those reach every
 * request (the base path, header names, route templates, the validator's parameter names):
 * `toLowerCase` on a two-byte string goes through ICU, a key lookup through the two-byte string
 * table, and writing one out through a UTF-8 conversion. Each character beyond Latin-1 is parsed as
 * a marker and its code point, and put back afterwards; a text that uses every marker, or does not
 * parse that way, is parsed as it is (so its errors point at the text as written).
 */
export function loadYamlOneByte(text: string): unknown {
  const marker = /[\u0100-\u{10ffff}]/u.test(text) ? MARKERS.find((candidate) => !text.includes(candidate)) : undefined;
  if (marker === undefined) return load(text, { schema: CORE_SCHEMA });
  const replaced = text.replace(BEYOND_LATIN1, (character) => `${marker}${character.codePointAt(0)!.toString(16)}${marker}`);
  // The result of replace keeps its subject's representation: copied through Latin-1 (lossless now) to be one-byte.
  const encoded = Buffer.from(replaced, 'latin1').toString('latin1');
  let parsed: unknown;
  try {
    parsed = load(encoded, { schema: CORE_SCHEMA });
  } catch {
    return load(text, { schema: CORE_SCHEMA });
  }
  const pattern = new RegExp(`${marker}([0-9a-f]+)${marker}`, 'g');
  const decode = (value: string) =>
    value.includes(marker) ? value.replace(pattern, (_match, hex: string) => String.fromCodePoint(parseInt(hex, 16))) : value;
  return restore(parsed, decode, marker, new Set());
}

/** The value with `decode` applied to each string and key that holds a marker; objects rebuilt only where a key does. */
function restore(value: unknown, decode: (text: string) => string, marker: string, seen: Set<object>): unknown {
  if (typeof value === 'string') return decode(value);
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) value[index] = restore(value[index], decode, marker, seen);
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!keys.some((key) => key.includes(marker))) {
    for (const key of keys) record[key] = restore(record[key], decode, marker, seen);
    return record;
  }
  // A key is renamed: built anew, so that the keys keep their order.
  const rebuilt: Record<string, unknown> = {};
  for (const key of keys) rebuilt[decode(key)] = restore(record[key], decode, marker, seen);
  return rebuilt;
}
