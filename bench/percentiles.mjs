/** p50, p99 and the maximum of latencies in ms, to two decimals. */
export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) =>
    sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100 : undefined;
  return { p50: at(50), p99: at(99), max: sorted.at(-1), count: sorted.length };
}
