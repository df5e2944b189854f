import { afterEach, describe, expect, it } from 'vitest';
import { checkDeadline, DeadlineReached, setGenerationDeadline } from '../src/deadline.js';
import { isValid } from '../src/generate/schema-validator.js';

afterEach(() => setGenerationDeadline(undefined));

describe('the generation deadline', () => {
  it('lets generation go on without a deadline, or before it', () => {
    expect(() => checkDeadline()).not.toThrow();
    setGenerationDeadline(performance.now() + 60_000);
    expect(() => checkDeadline()).not.toThrow();
  });

  it("stops a generator's filter once passed: isValid throws, where a filter that never passes would spin on", () => {
    setGenerationDeadline(performance.now() - 1);
    expect(() => checkDeadline()).toThrow(DeadlineReached);
    expect(() => isValid({ type: 'string' }, 'a')).toThrow('--max-time reached');
    setGenerationDeadline(undefined);
    expect(isValid({ type: 'string' }, 'a')).toBe(true);
  });
});
