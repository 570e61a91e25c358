/** The value below which `p`% of `values` fall (the nearest rank, from below); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

/** The middle of `values` (the upper one of two): percentile 50. */
export const median = (values: readonly number[]): number => percentile(values, 50)
