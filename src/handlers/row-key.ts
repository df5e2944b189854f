/**
 * The integer key a path parameter declared as a string names, or undefined when it names none (not
 * a decimal integer a row's key can be): the generated handlers answer that as a key with no row.
 */
export function integerKey(text: string): number | undefined {
  if (!/^-?(0|[1-9][0-9]{0,15})$/.test(text)) return undefined;
  const key = Number(text);
  return Number.isSafeInteger(key) ? key : undefined;
}
