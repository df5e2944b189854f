import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, nextPageLink } from '../../src/handlers/paging.js';

describe('paging', () => {
  it.each([1, 20, Number.MAX_SAFE_INTEGER])('reads back the cursor it made for id %i', (id) => {
    const cursor = encodeCursor(id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toBe(id);
  });

  it.each([
    ['someone else’s text', Buffer.from('hello').toString('base64url')],
    ['an id of zero', Buffer.from('p1:0').toString('base64url')],
    ['an id beyond 2^53 - 1', Buffer.from('p1:9007199254740993').toString('base64url')],
    ['another version', Buffer.from('p2:5').toString('base64url')],
    ['an empty cursor', ''],
  ])('refuses %s with invalid_cursor', (_label, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'invalid_cursor', status: 400 }) as Error);
  });

  it('links to the next page with every parameter but the old cursor, absent ones left out', () => {
    expect(nextPageLink('/v1/pets', { limit: 5, status: undefined, cursor: 'old' }, 'new')).toBe(
      '</v1/pets?limit=5&cursor=new>; rel="next"',
    );
  });
});
