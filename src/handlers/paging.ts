import { apiError } from '../errors/api-error.js';

// The cursor is opaque to clients so that the paging strategy can change without a new API version.
const CURSOR_VERSION = 'p1';

export function encodeCursor(lastId: number): string {
  return Buffer.from(`${CURSOR_VERSION}:${lastId}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^p1:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw apiError('invalid_cursor');
  return id;
}

/** RFC 8288 link to the next page, keeping every parameter of this request but the cursor. */
export function nextPageLink(path: string, query: Record<string, string | number | undefined>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name !== 'cursor') params.set(name, String(value));
  }
  params.set('cursor', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
}
