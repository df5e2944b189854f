import { parse } from 'lossless-json';

/**
 * Why a string may not be taken as text: U+0000, which PostgreSQL cannot store in text and which no
 * name needs, or an unpaired UTF-16 surrogate (`"\ud800"` in JSON), which is not a character at all
 * and which UTF-8 storage would turn into something else.
 */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL (U+0000)';
  if (!value.isWellFormed()) return 'must be well-formed Unicode, without unpaired surrogates';
  return undefined;
}

/** A number token that a double would not hold exactly, kept as written until the body is judged. */
class InexactNumber {
  constructor(readonly text: string) {}
}

/** Digits of the decimal `text` as an exact integer, or undefined when it has a fractional part. */
function exactInteger(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  let digits = whole! + fraction;
  if (/^0*$/.test(digits)) return 0n;
  let scale = exponent - fraction.length;
  // Trailing zeros of the digits move into the scale: 1.50e1 is 15.
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  if (scale < 0) return undefined;
  if (scale > 400) return undefined; // far beyond any double: handled as not finite
  return BigInt(`${sign}${digits || '0'}${'0'.repeat(scale)}`);
}

/**
 * A number as JSON.parse would read it, unless reading it as a double changes it: a token whose
 * double is a whole number must be exactly that number (1.0000000000000001 and 9007199254740993 are
 * not), and none may overflow to Infinity. Fractions are kept as doubles: 0.1 has no exact double.
 */
function readNumber(text: string): number | InexactNumber {
  const value = Number(text);
  if (!Number.isFinite(value)) return new InexactNumber(text);
  if (Number.isInteger(value) && exactInteger(text) !== BigInt(value)) return new InexactNumber(text);
  return value;
}

export type StrictJsonResult =
  { ok: true; value: unknown } | { ok: false; kind: 'syntax' } | { ok: false; kind: 'invalid'; problems: string[] };

/** Where a value is in the body, spelled out only for a problem: a deep body has long paths. */
interface Field {
  parent?: Field;
  key: string;
}

function fieldName(field: Field): string {
  const keys: string[] = [];
  for (let at: Field | undefined = field; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * Every problem of the parsed body, in document order, each naming its field as the validator does
 * (`body.name`). With a stack of its own rather than recursion: a body the parser could read, however
 * deeply nested, must not exhaust the call stack here.
 */
function findProblems(body: unknown): string[] {
  const problems: string[] = [];
  const pending: Array<{ value: unknown; at: Field } | string> = [{ value: body, at: { key: 'body' } }];
  while (pending.length) {
    const next = pending.pop()!;
    if (typeof next === 'string') {
      problems.push(next);
      continue;
    }
    const { value, at } = next;
    if (value instanceof InexactNumber) {
      const read = Number(value.text);
      problems.push(`${fieldName(at)} must be a number that a double holds exactly (${value.text} would be read as ${read})`);
    } else if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) problems.push(`${fieldName(at)} ${problem}`);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1)
        pending.push({ value: value[index], at: { parent: at, key: String(index) } });
    } else if (value !== null && typeof value === 'object') {
      // Reversed, so that each key's own problem comes just before its value's, as they are written.
      for (const [key, item] of Object.entries(value).reverse()) {
        pending.push({ value: item, at: { parent: at, key } });
        const problem = textProblem(key);
        if (problem) pending.push(`a key of ${fieldName(at)} ${problem}`);
      }
    }
  }
  return problems;
}

/**
 * Parses a request body as JSON, strictly: no key twice in one object (which JSON.parse would settle
 * silently by keeping the last), no number that a double would change, and no string that is not
 * text (see textProblem). lossless-json hands every number token over as written, which JSON.parse
 * cannot do on Node 20.
 */
export function parseStrictJson(text: string): StrictJsonResult {
  let value: unknown;
  try {
    value = parse(text, null, readNumber);
  } catch (error) {
    const duplicate = /^Duplicate key '(.*)' encountered/.exec((error as Error).message);
    if (duplicate) return { ok: false, kind: 'invalid', problems: [`body has the key ${JSON.stringify(duplicate[1])} more than once`] };
    // The parser recurses: thousands of nested arrays (16 KiB of `[`) exhaust the stack. Well-formed
    // JSON all the same, but deeper than anything a schema here describes.
    if (error instanceof RangeError) return { ok: false, kind: 'invalid', problems: ['body is nested too deeply'] };
    return { ok: false, kind: 'syntax' };
  }
  const problems = findProblems(value);
  return problems.length ? { ok: false, kind: 'invalid', problems } : { ok: true, value };
}
