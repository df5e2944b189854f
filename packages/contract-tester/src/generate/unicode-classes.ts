/**
 * Code points text is made of where a pattern names a Unicode property (`\p{L}`): ASCII, Latin-1,
 * and a few of each other kind (letters of other scripts, each case, marks, digits, numerals,
 * spaces, separators, symbols, format characters).
 */
const SAMPLE = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, index) => 0x20 + index),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, index) => 0xa0 + index),
  ...[0x09, 0x0a, 0x0d, 0x101, 0x151, 0x1c5, 0x2b0, 0x3a9, 0x3b1, 0x416, 0x436, 0x5d0, 0x639, 0x663, 0x939, 0x966],
  ...[0x301, 0x903, 0x20dd, 0x200b, 0x2003, 0x2028, 0x2029, 0x20ac, 0x2211, 0x216b, 0x3000, 0x3042, 0x30a2, 0x4e2d, 0xd55c, 0x1f600],
].map((codePoint) => String.fromCodePoint(codePoint));

/** The sampled code points a character class (or a property escape) matches, as a class; undefined for none. */
function sampledClass(construct: string): string | undefined {
  let whole: RegExp;
  try {
    whole = new RegExp(`^${construct}$`, 'u');
  } catch {
    return undefined;
  }
  const members = SAMPLE.filter((character) => whole.test(character));
  if (!members.length) return undefined;
  return `[${members.map((character) => `\\u{${character.codePointAt(0)!.toString(16)}}`).join('')}]`;
}

/**
 * A pattern (with the `u` flag) to generate text from, where each character class that names a
 * Unicode property (`\p{L}`, `[\P{M}\p{M}]`, `[^\p{L}]`) becomes the class of the sampled code
 * points it matches. fast-check's stringMatching turns such a class into ranges by testing every
 * code point, seconds per pattern that no deadline check can interrupt; the sample takes a
 * millisecond. What it makes matches the original pattern wherever the class occurs outside a
 * lookaround; the generators keep only text the original pattern matches anyway.
 */
export function sampledPropertyClasses(source: string): string {
  if (!/\\[pP]\{/.test(source)) return source;
  let result = '';
  let index = 0;
  while (index < source.length) {
    const character = source[index]!;
    if (character === '\\') {
      const property = /^\\[pP]\{[^}]*\}/.exec(source.slice(index))?.[0];
      const construct = property ?? source.slice(index, index + 2);
      result += (property && sampledClass(property)) ?? construct;
      index += construct.length;
    } else if (character === '[') {
      const end = classEnd(source, index);
      const construct = source.slice(index, end);
      result += (/\\[pP]\{/.test(construct) && sampledClass(construct)) || construct;
      index = end;
    } else {
      result += character;
      index += 1;
    }
  }
  return result;
}

/** Where the character class that opens at `start` ends (just past its `]`). */
function classEnd(source: string, start: number): number {
  let index = start + 1;
  if (source[index] === '^') index += 1;
  while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
  return index + 1;
}
