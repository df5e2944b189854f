/** Unescapes one JSON-pointer token (RFC 6901). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value a JSON pointer (`/components/schemas/Pet`) names in `root`, or undefined. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>(
      (node, token) =>
        node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[unescapePointerToken(token)] : undefined,
      root,
    );
}

/** A JSON pointer from a `$ref`'s fragment, percent-decoded (`#/paths/~1pets%7Bid%7D`, RFC 3986). */
export function pointerOfRef(ref: string): string {
  const fragment = ref.slice(ref.indexOf('#') + 1);
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * Follows local `$ref`s (`#/components/...`) until a value without one: the value and the pointer
 * of where it was found (the given pointer when there was no `$ref`). A `$ref` to another document
 * is refused: its reader bundles such documents first, or does not take them.
 */
export function resolveRefAt<T>(document: unknown, value: T, pointer = ''): { value: T; pointer: string } {
  let current: unknown = value;
  let at = pointer;
  for (let hops = 0; current !== null && typeof current === 'object' && '$ref' in current; hops += 1) {
    const ref = current.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#'))
      throw new Error(`$ref ${String(ref)} is not local: only $refs within the document are followed`);
    if (hops > 64) throw new Error(`$ref ${ref} goes round in a circle`);
    at = pointerOfRef(ref);
    current = valueAtPointer(document, at);
    if (current === undefined) throw new Error(`$ref ${ref} points at nothing`);
  }
  return { value: current as T, pointer: at };
}

/** Follows local `$ref`s until a value without one (see resolveRefAt). */
export function resolveRef<T>(document: unknown, value: T): T {
  return resolveRefAt(document, value).value;
}
