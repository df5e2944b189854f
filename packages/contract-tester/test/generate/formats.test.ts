import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/generate/formats.js';

describe('the formats the tester knows', () => {
  it('the integer formats are their whole range, 2^53 and past it too', () => {
    expect(FORMATS['int64']!.range).toEqual({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    expect(FORMATS['int32']!.range).toEqual({ min: -(2n ** 31n), max: 2n ** 31n - 1n });
    expect(FORMATS['uint32']!.range).toEqual({ min: 0n, max: 2n ** 32n - 1n });
    expect(FORMATS['uint64']!.range).toEqual({ min: 0n, max: 2n ** 64n - 1n });
  });

  it('duration: made as RFC 3339 durations, and judged by no rule of its own', () => {
    const durations = fc.sample(FORMATS['duration']!.valid!(), { numRuns: 100, seed: 3 });
    for (const text of durations) expect(text).toMatch(/^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?)?$/);
    expect(FORMATS['duration']!.test).toBeUndefined();
  });

  it('byte: made as base64 text', () => {
    for (const text of fc.sample(FORMATS['byte']!.valid!(), { numRuns: 100, seed: 4 })) {
      expect(text).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
    }
  });

  for (const [name, rule] of Object.entries(FORMATS).filter(([, rule]) => rule.type === 'string' && rule.test)) {
    it(`${name}: what it makes has the format, what it lists as invalid has not`, () => {
      for (const value of fc.sample(rule.valid!(), { numRuns: 50, seed: 7 })) expect(rule.test!(value), value).toBe(true);
      for (const value of rule.invalid!) expect(rule.test!(value), value).toBe(false);
    });
  }
});

describe('dates and times, in full (RFC 3339)', () => {
  it('a date names a day of the calendar', () => {
    for (const text of ['2020-02-29', '2024-12-31', '1900-01-01']) expect(FORMATS['date']!.test!(text), text).toBe(true);
    for (const text of ['2021-02-29', '2026-02-30', '2020-13-01', '2026-04-31', '2026-00-10'])
      expect(FORMATS['date']!.test!(text), text).toBe(false);
  });

  it('a date is valid exactly when the calendar has that day (every YYYY-MM-DD, against Date)', () => {
    const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const text = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits(19), twoDigits(39))
      .map(([year, month, day]) => `${String(year).padStart(4, '0')}-${month}-${day}`);
    fc.assert(
      fc.property(text, (date) => {
        const parsed = new Date(`${date}T00:00:00Z`);
        const exists = !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
        expect(FORMATS['date']!.test!(date)).toBe(exists);
      }),
      { numRuns: 20_000, seed: 11 },
    );
  });

  it('a date-time has a time of day and an offset', () => {
    const valid = ['2024-01-01T10:00:00+05:30', '2024-01-01T10:00:00.123-08:00', '2024-01-01T23:59:59Z', '2016-12-31T23:59:60Z'];
    for (const text of valid) expect(FORMATS['date-time']!.test!(text), text).toBe(true);
    const invalid = [
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:60:00Z',
      '2024-01-01T10:00:00+24:00',
      '2024-01-01T10:00:00',
      '2021-02-29T10:00:00Z',
    ];
    for (const text of invalid) expect(FORMATS['date-time']!.test!(text), text).toBe(false);
  });
});
