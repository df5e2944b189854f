import { describe, expect, it } from 'vitest';
import { ERROR_STATUSES } from '../../generated/contract.js';
import { loadContract } from '../../src/contract/contract.js';
import { ERROR_MESSAGES, LISTED_PROBLEMS, PROBLEM_LENGTH, errorMessage, errorStatus, type ErrorCode } from '../../src/errors/registry.js';
import { STACK_ERROR_STATUSES, type StackErrorCode } from '../../src/errors/stack-codes.js';

describe('the error registry', () => {
  it('has a message for exactly the codes of the stack and of openapi.yaml, with the status the spec gives each', () => {
    const spec = loadContract().errorCodes;
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...new Set([...Object.keys(STACK_ERROR_STATUSES), ...spec.keys()])].sort());
    for (const [code, status] of spec) expect(errorStatus(code as ErrorCode)).toBe(status);
    expect(ERROR_STATUSES).toEqual(Object.fromEntries(spec));
  });

  it("gives a stack code the document's error-code table does not list its documented default status", () => {
    const unlisted = (Object.keys(STACK_ERROR_STATUSES) as StackErrorCode[]).filter((code) => !(code in ERROR_STATUSES));
    for (const code of unlisted) expect(errorStatus(code)).toBe(STACK_ERROR_STATUSES[code]);
  });

  it('fills a template from its parameters and keeps a fixed message as it is', () => {
    expect(errorMessage('pet_not_found', { petId: 7 })).toBe('No pet with id 7.');
    expect(errorMessage('method_not_allowed', { method: 'PUT', allow: '' })).toBe('PUT is not allowed here; use another method.');
    expect(errorMessage('internal_error', undefined)).toBe('The service failed to handle the request. Try again later.');
  });

  it('lists each distinct problem of a request once', () => {
    expect(errorMessage('validation_failed', { problems: ['body.name is required', 'query.x is unknown', 'body.name is required'] })).toBe(
      'Invalid request: body.name is required; query.x is unknown.',
    );
  });

  it('lists the first problems in full and counts the rest, so that the answer stays small whatever the request', () => {
    const problems = Array.from({ length: 1500 }, (_, i) => `body.k${i} is not a field of this request; remove it`);
    const message = errorMessage('validation_failed', { problems });
    expect(message).toBe(`Invalid request: ${problems.slice(0, LISTED_PROBLEMS).join('; ')}; and ${1500 - LISTED_PROBLEMS} more.`);
  });

  it('cuts a problem that quotes a long value short, between whole characters', () => {
    const problem = `body.name must be short (${'🐈'.repeat(300)})`;
    const message = errorMessage('validation_failed', { problems: [problem] });
    const listed = [...message.slice('Invalid request: '.length, -1)];
    expect(listed).toHaveLength(PROBLEM_LENGTH);
    expect(listed.join('')).toBe(`${[...problem].slice(0, PROBLEM_LENGTH - 1).join('')}…`);
    expect(message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
