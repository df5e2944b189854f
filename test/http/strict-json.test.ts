import { describe, expect, it } from 'vitest';
import { parseStrictJson, textProblem } from '../../src/http/strict-json.js';

describe('strict JSON', () => {
  it("reads any JSON value as JSON.parse does (what an operation takes is its schema's to say)", () => {
    for (const text of ['{"a":1,"b":[true,null,"x",-0.5,1e2]}', '[]', '{}', ' { "a" : { "b" : [ 1 ] } } ', '"text"', '5', 'null', 'true']) {
      expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) as unknown });
    }
  });

  it.each(['', '{"a":}', '{"a":1,}', "{'a':1}", '{"a":01}', '{"a":NaN}', '{"a":1}x'])('calls %j a syntax error', (text) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, kind: 'syntax' });
  });

  it.each([
    ['1.0000000000000001', 'body.a must be a number that a double holds exactly (1.0000000000000001 would be read as 1)'],
    ['9007199254740993', 'body.a must be a number that a double holds exactly (9007199254740993 would be read as 9007199254740992)'],
    [
      '123456789012345678901234567890',
      'body.a must be a number that a double holds exactly (123456789012345678901234567890 would be read as 1.2345678901234568e+29)',
    ],
    ['1e309', 'body.a must be a number that a double holds exactly (1e309 would be read as Infinity)'],
    ['5e-324000', 'body.a must be a number that a double holds exactly (5e-324000 would be read as 0)'],
  ])('refuses %s, naming the field', (number, problem) => {
    expect(parseStrictJson(`{"a":${number}}`)).toEqual({ ok: false, kind: 'invalid', problems: [problem] });
  });

  it.each(['0', '-0', '0.0', '0e999999', '3.0', '30e-1', '9007199254740991', '-9007199254740991', '0.1', '1.5e-7', '2e3'])(
    'takes %s as JSON.parse does',
    (number) => {
      expect(parseStrictJson(`{"a":${number}}`)).toEqual({ ok: true, value: { a: JSON.parse(number) as number } });
    },
  );

  it('names nested fields as the validator does', () => {
    expect(parseStrictJson('{"a":{"b":[1,"\\u0000"]}}')).toEqual({
      ok: false,
      kind: 'invalid',
      problems: ['body.a.b.1 must not contain NUL (U+0000)'],
    });
  });

  it("lists every problem in the order the body has them, a key's before its value's", () => {
    expect(parseStrictJson('{"a":["\\u0000",{"\\ud800":"\\u0000"}],"b":1e999}')).toEqual({
      ok: false,
      kind: 'invalid',
      problems: [
        'body.a.0 must not contain NUL (U+0000)',
        'a key of body.a.1 must be well-formed Unicode, without unpaired surrogates',
        'body.a.1.\ud800 must not contain NUL (U+0000)',
        'body.b must be a number that a double holds exactly (1e999 would be read as Infinity)',
      ],
    });
  });

  it('checks a body deeper than a recursive walk could go, naming the field', () => {
    const depth = 3_000;
    expect(parseStrictJson(`{"a":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`)).toEqual({
      ok: false,
      kind: 'invalid',
      problems: [`body.a.${Array<string>(depth).fill('0').join('.')} must not contain NUL (U+0000)`],
    });
  });

  it('refuses a key twice in one object', () => {
    expect(parseStrictJson('{"a":1,"b":{"c":1,"c":2}}')).toEqual({
      ok: false,
      kind: 'invalid',
      problems: ['body has the key "c" more than once'],
    });
  });

  it('tells text from strings that are not', () => {
    expect(textProblem('Zoë 🐕')).toBeUndefined();
    expect(textProblem('a\u0000b')).toBe('must not contain NUL (U+0000)');
    expect(textProblem('\ud800')).toBe('must be well-formed Unicode, without unpaired surrogates');
    expect(textProblem('\udc00\ud800')).toBe('must be well-formed Unicode, without unpaired surrogates');
  });
});
