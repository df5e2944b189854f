import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/generate/formats.js';

describe('the formats the tester knows', () => {
  it('int64 is the range JSON and JavaScript carry exactly', () => {
    expect(FORMATS['int64']!.range).toEqual({ min: -(2n ** 53n - 1n), max: 2n ** 53n - 1n });
  });

  for (const [name, rule] of Object.entries(FORMATS).filter(([, rule]) => rule.type === 'string')) {
    it(`${name}: what it makes has the format, what it lists as invalid has not`, () => {
      for (const value of fc.sample(rule.valid!(), { numRuns: 50, seed: 7 })) expect(rule.test!(value), value).toBe(true);
      for (const value of rule.invalid!) expect(rule.test!(value), value).toBe(false);
    });
  }
});
