import { describe, expect, it } from 'vitest';
import { evaluatePreconditions } from '../../src/http/preconditions.js';

describe('evaluatePreconditions (RFC 9110 §13.2.2, for a GET)', () => {
  const etag = '"1-2"';

  it('serves without conditional headers; on an answer without an ETag only If-None-Match: * counts', () => {
    expect(evaluatePreconditions({}, etag)).toBe('serve');
    expect(evaluatePreconditions({ 'if-none-match': '"1-2"' }, undefined)).toBe('serve');
    expect(evaluatePreconditions({ 'if-match': '"1-2"' }, undefined)).toBe('serve');
    expect(evaluatePreconditions({ 'if-none-match': '*' }, undefined)).toBe('not_modified');
  });

  it.each([
    ['the ETag', '"1-2"'],
    ['the ETag, weak (weak comparison)', 'W/"1-2"'],
    ['a list holding it', '"1-1", W/"1-2"'],
    ['*', '*'],
    ['*, with spaces', ' * '],
  ])('answers 304 to If-None-Match with %s', (_label, value) => {
    expect(evaluatePreconditions({ 'if-none-match': value }, etag)).toBe('not_modified');
  });

  it.each([
    ['another tag', '"1-1"'],
    ['another pet', '"11-2"'],
    ['no entity-tag', '1-2'],
    ['an unterminated tag', '"1-2'],
  ])('serves If-None-Match with %s', (_label, value) => {
    expect(evaluatePreconditions({ 'if-none-match': value }, etag)).toBe('serve');
  });

  it('matches a weak ETag by the weak comparison', () => {
    expect(evaluatePreconditions({ 'if-none-match': '"1-2"' }, 'W/"1-2"')).toBe('not_modified');
  });

  it('reads If-None-Match sent on several lines as one list', () => {
    expect(evaluatePreconditions({ 'if-none-match': ['"1-1"', '"1-2"'] as unknown as string }, etag)).toBe('not_modified');
  });

  it('evaluates If-Match first, strongly: false fails whatever If-None-Match says; true goes on to If-None-Match', () => {
    expect(evaluatePreconditions({ 'if-match': '"1-1"', 'if-none-match': '"1-2"' }, etag)).toBe('failed');
    expect(evaluatePreconditions({ 'if-match': 'W/"1-2"' }, etag)).toBe('failed');
    expect(evaluatePreconditions({ 'if-match': '"1-2"' }, 'W/"1-2"')).toBe('failed');
    expect(evaluatePreconditions({ 'if-match': '"1-1", "1-2"', 'if-none-match': '"1-2"' }, etag)).toBe('not_modified');
    expect(evaluatePreconditions({ 'if-match': '*', 'if-none-match': '"1-1"' }, etag)).toBe('serve');
  });
});
