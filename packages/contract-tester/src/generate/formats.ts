import fc from 'fast-check';

/** What the tester knows of a string or integer `format`: how to make values that have it, and some that do not. */
export interface FormatRule {
  type: 'string' | 'integer';
  valid?: () => fc.Arbitrary<string>;
  /** Whether a value has the format (for the validator); integers are checked against `range`. */
  test?: (text: string) => boolean;
  /** For integers: the range the format allows. For strings: texts that break it. */
  range?: { min: bigint; max: bigint };
  invalid?: string[];
}

// Hours 00-23, minutes 00-59, seconds 00-60 (a leap second), offsets up to ±23:59 (RFC 3339 §5.6):
// Date.parse alone takes 24:00 as the next day's midnight.
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * YYYY-MM-DD (checked by the caller) names a day that exists: the month is 1 to 12 and the day is
 * in it, 29 February only in a leap year. Worked out from the digits: a response checker meets it
 * for every date of every body, where a Date per call shows in a run's time.
 */
function validCalendarDate(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** The integers of `bits` bits, signed or not. */
const integers = (bits: bigint, signed: boolean): FormatRule => ({
  type: 'integer',
  range: signed ? { min: -(2n ** (bits - 1n)), max: 2n ** (bits - 1n) - 1n } : { min: 0n, max: 2n ** bits - 1n },
});

/**
 * The formats of OpenAPI's format registry that matter for request data. The integer formats are
 * their whole range: an int64 past 2^53 is made, parsed and sent back exactly (as a bigint), so a
 * spec that wants JavaScript's safe integers says so with a `maximum`. A format missing here is
 * neither generated nor broken.
 */
export const FORMATS: Record<string, FormatRule> = {
  int8: integers(8n, true),
  int16: integers(16n, true),
  int32: integers(32n, true),
  int64: integers(64n, true),
  uint8: integers(8n, false),
  uint16: integers(16n, false),
  uint32: integers(32n, false),
  uint64: integers(64n, false),
  'date-time': {
    type: 'string',
    valid: () =>
      fc
        .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
        .map((date) => date.toISOString()),
    // Date.parse knows no leap second: it reads :60 as :59.
    test: (text) =>
      RFC3339_DATE_TIME.test(text) &&
      !Number.isNaN(Date.parse(text.replace(/:60(?=[.Zz+-])/, ':59'))) &&
      validCalendarDate(text.slice(0, 10)),
    invalid: [
      '2026-13-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2021-02-29T12:00:00Z',
      '2026-01-01 00:00:00',
      'yesterday',
      '2026-01-01T25:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:00:00+24:00',
      '2026-01-01T12:00:00',
    ],
  },
  date: {
    type: 'string',
    valid: () =>
      fc
        .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10)),
    test: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && validCalendarDate(text),
    invalid: ['2026-13-01', '2026-02-30', '2021-02-29', '2020-13-01', '01/02/2026', '2026-1-1'],
  },
  // Made as RFC 3339's durations (JSON Schema's `duration`), for servers that check it; neither
  // checked in answers nor broken, since servers written against other readings (.NET's
  // 00:05:00) answer and take those.
  duration: {
    type: 'string',
    valid: () =>
      fc
        .tuple(fc.nat({ max: 400 }), fc.nat({ max: 23 }), fc.nat({ max: 59 }))
        .map(([days, hours, minutes]) => (hours || minutes ? `P${days}DT${hours}H${minutes}M` : `P${days}D`)),
  },
  // OpenAPI's base64 text (its format registry): made as such, neither checked nor broken, as duration.
  byte: {
    type: 'string',
    valid: () => fc.uint8Array({ maxLength: 3072 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  },
  uuid: {
    type: 'string',
    valid: () => fc.uuid(),
    test: (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text),
    invalid: ['not-a-uuid', '123e4567-e89b-12d3-a456-42661417400', '123e4567e89b12d3a456426614174000z'],
  },
  email: {
    type: 'string',
    valid: () => fc.emailAddress(),
    test: (text) => /^[^@\s]+@[^@\s]+$/.test(text),
    invalid: ['no-at-sign', '@example.com', 'a@'],
  },
  uri: {
    type: 'string',
    valid: () => fc.webUrl(),
    test: (text) => URL.canParse(text) && !/\s/.test(text),
    invalid: ['not a uri', '://missing-scheme', 'http://exa mple.com'],
  },
};
