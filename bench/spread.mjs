// How far a ratio measured once per round can be trusted, and whether the all-servers bench
// (bench/all-servers.mjs) needs another round. Pure functions: test/bench/spread.test.ts.
import { median } from './report.mjs';

/** P(X <= k) for X ~ Binomial(n, 1/2). */
function binomialAtMost(n, k) {
  let term = 0.5 ** n; // P(X = 0)
  let sum = term;
  for (let i = 1; i <= k; i += 1) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/**
 * The rank k of the order statistics [x(k), x(n+1-k)] that bound the median of n rounds with at
 * least `confidence`, whatever the distribution of a round's value (each round falls either side of
 * the true median with even odds). Where even min..max (k = 1) is short of it, k is 1.
 */
export function medianBoundRank(n, confidence) {
  let k = 1;
  while (k + 1 <= Math.floor(n / 2) && 2 * binomialAtMost(n, k) <= 1 - confidence) k += 1;
  return k;
}

/**
 * A ratio over the rounds: its median, the bounds of that median (medianBoundRank), and the spread,
 * the larger distance from the median to either bound as a fraction of the median. A distance to
 * a bound, rather than min..max, is what narrows as rounds are added: one odd round widens the
 * range for good, but moves the median's bounds by one rank at most.
 */
export function spreadOf(values, confidence) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: undefined, low: undefined, high: undefined, spread: undefined, rounds: 0 };
  const k = medianBoundRank(sorted.length, confidence);
  const middle = median(sorted);
  const low = sorted[k - 1];
  const high = sorted[sorted.length - k];
  const spread = middle > 0 ? Math.max(middle - low, high - middle) / middle : Infinity;
  return { median: middle, low, high, spread, rounds: sorted.length };
}

/**
 * Whether the rounds so far settle every ratio: `done` once at least `minRounds` ran and each
 * ratio's spread is within `tolerance`, or once `maxRounds` ran (then `settled` is false). `wide`
 * names the ratios still outside the tolerance.
 * @param {Record<string, number[]>} valuesByRatio each ratio's value in every round so far
 */
export function roundsVerdict(valuesByRatio, { minRounds, maxRounds, tolerance, confidence }) {
  const rounds = Math.max(0, ...Object.values(valuesByRatio).map((values) => values.length));
  const wide = Object.entries(valuesByRatio)
    .filter(([, values]) => !(spreadOf(values, confidence).spread <= tolerance))
    .map(([name]) => name);
  const settled = rounds >= minRounds && wide.length === 0;
  return { done: settled || rounds >= maxRounds, settled, rounds, wide };
}

/** "±4.2 %": a spread as printed beside its ratio. */
export function formatSpread(spread) {
  return spread === undefined ? '' : Number.isFinite(spread) ? `±${(spread * 100).toFixed(1)} %` : '±∞';
}
