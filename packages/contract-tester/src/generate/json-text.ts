/**
 * A piece of JSON text written byte for byte: numbers JSON.stringify cannot write (`9007199254740993`,
 * `1.0000000000000001`, `0x1`) and strings holding bytes that are not UTF-8.
 */
export class RawJson {
  constructor(
    readonly bytes: Buffer,
    /** How the piece reads in a report. */
    readonly display: string = bytes.toString('latin1'),
  ) {}

  static text(text: string): RawJson {
    return new RawJson(Buffer.from(text, 'utf8'), text);
  }
}

/** A JSON value some of whose leaves may be raw text. */
export type JsonValue = null | boolean | number | string | RawJson | JsonValue[] | { [name: string]: JsonValue };

function write(value: JsonValue, parts: Buffer[]): void {
  if (value instanceof RawJson) {
    parts.push(value.bytes);
  } else if (Array.isArray(value)) {
    parts.push(Buffer.from('['));
    value.forEach((item, index) => {
      if (index) parts.push(Buffer.from(','));
      write(item, parts);
    });
    parts.push(Buffer.from(']'));
  } else if (value !== null && typeof value === 'object') {
    parts.push(Buffer.from('{'));
    Object.entries(value).forEach(([name, item], index) => {
      parts.push(Buffer.from(`${index ? ',' : ''}${JSON.stringify(name)}:`));
      write(item, parts);
    });
    parts.push(Buffer.from('}'));
  } else {
    // Lone surrogates come out as \ud800 escapes (well-formed JSON.stringify), NUL as \u0000.
    parts.push(Buffer.from(JSON.stringify(value), 'utf8'));
  }
}

/** The value as JSON text, in bytes. */
export function encodeJson(value: JsonValue): Buffer {
  const parts: Buffer[] = [];
  write(value, parts);
  return Buffer.concat(parts);
}

export function containsRaw(value: JsonValue): boolean {
  if (value instanceof RawJson) return true;
  if (Array.isArray(value)) return value.some(containsRaw);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsRaw);
  return false;
}

/** Deep equality of plain JSON values (parsed bodies), property order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}
