import { describe, expect, it } from 'vitest';
import { exactPathPattern, matchPathTemplate } from '../src/paths.js';

describe('path templates', () => {
  it('matches paths against templates exactly, and reads their parameters percent-decoded', () => {
    const pattern = exactPathPattern('/pets/{id}.json');
    expect(pattern.test('/pets/7.json')).toBe(true);
    expect(pattern.test('/pets/7xjson')).toBe(false);
    expect(pattern.test('/Pets/7.json')).toBe(false);
    expect(pattern.test('/pets/7/8.json')).toBe(false);
    expect(matchPathTemplate('/a/{x}/b/{y}', '/a/1%2F2/b/%C3%A9')).toEqual({ x: '1/2', y: 'é' });
    expect(matchPathTemplate('/a/{x}', '/a/%E0%A4%A')).toBeUndefined();
    expect(matchPathTemplate('/a/{x}', '/b/1')).toBeUndefined();
  });
});
