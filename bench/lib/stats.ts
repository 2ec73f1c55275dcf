export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export function spread(values: number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

/** Ratio of medians, with the range of per-round ratios (round i of `a` against round i of `b`). */
export function ratioSpread(a: number[], b: number[]): Spread {
  const perRound = a.map((value, i) => value / (b[i] ?? NaN));
  return { median: median(a) / median(b), min: Math.min(...perRound), max: Math.max(...perRound), values: perRound };
}

export const round = (value: number, digits = 0) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** "1,234 (1,200–1,250)" */
export function fmtSpread(s: Spread, digits = 0): string {
  const f = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}
