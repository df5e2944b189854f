import { describe, expect, it } from 'vitest';
import { maxResponseTime } from '../../../src/checks/case/max-response-time.js';
import { answered } from '../../support/case-answer.js';

describe('max_response_time', () => {
  it('finds an answer slower than the limit, in whole milliseconds', () => {
    const response = { ...answered(200), elapsedMs: 250.4 };
    expect(maxResponseTime.check({ response }, 300)).toEqual([]);
    expect(maxResponseTime.check({ response }, 250.4)).toEqual([]);
    expect(maxResponseTime.check({ response }, 100)).toEqual(['answered in 250 ms, over 100 ms']);
  });
});
