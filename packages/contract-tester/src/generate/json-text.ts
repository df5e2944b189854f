import { isInteger, parse, stringify } from 'lossless-json';

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

/** A JSON value some of whose leaves may be raw text; an integer no double holds exactly is a bigint. */
export type JsonValue = null | boolean | number | bigint | string | RawJson | JsonValue[] | { [name: string]: JsonValue };

/**
 * An integer past 2^53 held as a double, as the exact integer it is: JSON.stringify writes
 * -2^63 as -9223372036854776000, which a reader that keeps integers exact takes for another,
 * out of int64's range. From 1e21 on it writes an exponent, which is exact.
 */
function digitsOf(value: unknown): bigint | undefined {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21
    ? BigInt(value)
    : undefined;
}

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
  } else if (typeof value === 'bigint' || digitsOf(value) !== undefined) {
    parts.push(Buffer.from(String(digitsOf(value) ?? value)));
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

/** A JSON number's text as a value: an integer no double holds exactly stays exact, as a bigint. */
function exactNumber(text: string): number | bigint {
  const number = Number(text);
  if (!isInteger(text)) return number;
  const exact = BigInt(text);
  return BigInt(number) === exact ? number : exact;
}

// Only a run of 16 digits can be an integer past 2^53; other texts take the native parser's speed.
const LONG_DIGITS = /\d{16}/;

/**
 * Parses JSON as JSON.parse does (a repeated name keeps its last value), except that an integer no
 * double holds exactly (an int64 id such as 9007199254740993) is a bigint, so that it is compared
 * and sent back digit for digit.
 */
export function parseExactJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
  return parse(text, null, { parseNumber: exactNumber, onDuplicateKey: ({ newValue }) => newValue });
}

/** A parsed value as JSON text, bigints as their digits (JSON.stringify throws on them). */
export function jsonText(value: unknown): string {
  return value === undefined ? 'undefined' : (stringify(value, (_, item: unknown) => digitsOf(item) ?? item) ?? 'undefined');
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const bits = new DataView(new ArrayBuffer(8));

/** The next double from `value` toward zero, or away from it (a double's bits order its magnitude). */
function nextDouble(value: number, towardZero: boolean): number {
  bits.setFloat64(0, value);
  const pattern = bits.getBigUint64(0);
  bits.setBigUint64(0, towardZero ? pattern - 1n : pattern + 1n);
  return bits.getFloat64(0);
}

/**
 * The double a JSON Schema validator judges an exact integer by. Rounded toward zero inside the
 * 64-bit formats' ranges and away from zero outside them, so that every int64 and uint64 bound
 * falls on the right side: 2^63 − 1 is below 2^63 (an int64), 2^63 is not, 2^64 − 1 below 2^64
 * (a uint64). The formats are then judged exactly; other bounds past 2^53 to the nearest double.
 */
export function judgedDouble(value: bigint): number {
  let double = Number(value);
  const rounded = BigInt(double);
  const magnitude = (n: bigint) => (n < 0n ? -n : n);
  const outside = value < INT64_MIN || value > UINT64_MAX;
  if (outside && magnitude(rounded) < magnitude(value)) double = nextDouble(double, false);
  if (!outside && magnitude(rounded) > magnitude(value)) double = nextDouble(double, true);
  return double;
}

/** The value as a JSON Schema validator (Ajv, which knows no bigint) reads it: each bigint as its judged double. */
export function validatedView(value: unknown): unknown {
  if (typeof value === 'bigint') return judgedDouble(value);
  if (value === null || typeof value !== 'object' || !holdsBigInt(value)) return value;
  if (Array.isArray(value)) return value.map(validatedView);
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, validatedView(item)]));
}

function holdsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object' || value instanceof RawJson) return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(holdsBigInt);
}
