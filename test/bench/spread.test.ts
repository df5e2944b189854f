import { describe, expect, it } from 'vitest';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { formatSpread, medianBoundRank, roundsVerdict, spreadOf } from '../../bench/spread.mjs';
// @ts-expect-error: bench/ is plain JavaScript, without declarations.
import { ratiosByRound } from '../../bench/all-servers-report.mjs';

interface Spread {
  median: number;
  low: number;
  high: number;
  spread: number;
  rounds: number;
}
interface Verdict {
  done: boolean;
  settled: boolean;
  rounds: number;
  wide: string[];
}
const spread = spreadOf as (values: number[], confidence: number) => Spread;
const verdict = roundsVerdict as (
  values: Record<string, number[]>,
  options: { minRounds: number; maxRounds: number; tolerance: number; confidence: number },
) => Verdict;
const rank = medianBoundRank as (n: number, confidence: number) => number;
const options = { minRounds: 5, maxRounds: 8, tolerance: 0.1, confidence: 0.9 };

describe("a ratio's spread over the rounds", () => {
  it('bounds the median by the order statistics that cover it with the confidence asked', () => {
    // [x(k), x(n+1-k)] misses the median with probability 2 P(Binomial(n, 1/2) < k).
    expect(rank(5, 0.9)).toBe(1); // 2/32 = 6 %
    expect(rank(8, 0.9)).toBe(2); // 2 * 9/256 = 7 %
    expect(rank(10, 0.9)).toBe(2); // k = 3 would miss 2 * 56/1024 = 11 %
    expect(rank(3, 0.9)).toBe(1); // min..max, although it misses 25 %
  });

  it('is the larger distance from the median to a bound, as a share of the median', () => {
    const result = spread([1.0, 0.9, 1.05, 0.95, 1.0], 0.9);
    expect(result).toMatchObject({ median: 1, low: 0.9, high: 1.05, rounds: 5 });
    expect(result.spread).toBeCloseTo(0.1);
  });

  it('narrows as rounds are added, although an odd round stays in the range', () => {
    const rounds = [1, 1.3, 1, 1, 1, 1, 1, 1];
    expect(spread(rounds.slice(0, 5), 0.9).spread).toBeCloseTo(0.3);
    expect(spread(rounds, 0.9).spread).toBe(0);
  });

  it('is printed as ± a percentage', () => {
    expect((formatSpread as (spread: number) => string)(0.042)).toBe('±4.2 %');
  });
});

describe('whether the bench runs another round', () => {
  it('runs at least the minimum, however steady the ratios', () => {
    expect(verdict({ a: [1, 1, 1, 1] }, options)).toMatchObject({ done: false, wide: [] });
  });

  it('goes on while a ratio is wider than the tolerance, and names it', () => {
    expect(verdict({ steady: [1, 1, 1, 1, 1], wide: [1, 1.5, 1, 0.5, 1] }, options)).toEqual({
      done: false,
      settled: false,
      rounds: 5,
      wide: ['wide'],
    });
  });

  it('stops once every ratio is within the tolerance', () => {
    expect(verdict({ a: [1, 1.05, 0.95, 1, 1.02] }, options)).toMatchObject({ done: true, settled: true });
  });

  it('stops at the cap, unsettled', () => {
    expect(verdict({ a: [1, 2, 1, 2, 1, 2, 1, 2] }, options)).toMatchObject({ done: true, settled: false, wide: ['a'] });
  });
});

describe("the all-servers bench's ratios", () => {
  it('pairs the servers measured in the same round', () => {
    const m = (round: number, server: string, requestsPerSecond: number) => ({
      round,
      load: 'get',
      server,
      result: { requestsPerSecond, p50: 1, p99: 2 },
    });
    const values = (ratiosByRound as (measurements: unknown[]) => Record<string, number[]>)([
      m(1, 'project', 900),
      m(1, 'floor', 1000),
      m(2, 'project', 450),
      m(2, 'floor', 500),
    ]);
    expect(values['get: project / floor']).toEqual([0.9, 0.9]);
    expect(values['get: project p99 / p50']).toEqual([2, 2]);
    expect(values['create: project / floor']).toEqual([]);
  });
});
