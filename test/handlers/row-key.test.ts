import { describe, expect, it } from 'vitest';
import { integerKey } from '../../src/handlers/row-key.js';

describe('the integer key of a path parameter declared a string (src/handlers/row-key.ts)', () => {
  it.each([
    ['1', 1],
    ['0', 0],
    ['-3', -3],
    ['9007199254740991', 9_007_199_254_740_991],
  ])('reads %s as %d', (text, key) => {
    expect(integerKey(text)).toBe(key);
  });

  it.each(['', 'abc', '1.5', '01', '1e3', ' 1', '9007199254740993', '0x10'])('reads %j as naming no row', (text) => {
    expect(integerKey(text)).toBeUndefined();
  });
});
