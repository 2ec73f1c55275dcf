import { config } from "./config";
import { runLoad, type CpuTargets, type LoadResult, type LoadSpec } from "./load";
import { median, ratioSpread, spread, type Spread } from "./stats";

export interface Variant {
  name: string;
  /** A fresh spec per run (bodies that must be unique get a fresh counter). */
  spec: () => LoadSpec;
  targets: CpuTargets;
}

export interface VariantSummary {
  name: string;
  rps: Spread;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Median µs of CPU per request, by process group. */
  cpuUsPerRequest: Record<string, number>;
  runs: LoadResult[];
}

/**
 * Runs the variants interleaved, A B A B …: a warm-up each, then `reps` rounds. Interleaving spreads
 * any drift of the shared machine over all variants instead of biasing whichever ran last.
 */
export async function compare(title: string, variants: Variant[], reps = config.reps): Promise<VariantSummary[]> {
  const runs = new Map<string, LoadResult[]>(variants.map((variant) => [variant.name, []]));
  for (const variant of variants) {
    if (config.warmup > 0) await runLoad({ ...variant.spec(), duration: config.warmup }, variant.targets);
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const variant of variants) {
      const result = await runLoad({ ...variant.spec(), duration: config.duration }, variant.targets);
      runs.get(variant.name)!.push(result);
      console.log(
        `  [${title}] ${variant.name} #${rep + 1}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms` +
          (result.non2xx || result.errors || result.timeouts
            ? `, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`
            : ""),
      );
    }
  }
  return variants.map((variant) => summarize(variant.name, runs.get(variant.name)!));
}

export function summarize(name: string, results: LoadResult[]): VariantSummary {
  const groups = new Set(results.flatMap((result) => Object.keys(result.cpu)));
  return {
    name,
    rps: spread(results.map((result) => result.rps)),
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    timeouts: results.reduce((sum, result) => sum + result.timeouts, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    cpuUsPerRequest: Object.fromEntries(
      [...groups].map((group) => [group, median(results.map((result) => result.cpu[group]?.usPerRequest ?? 0))]),
    ),
    runs: results,
  };
}

/** Ratio of medians, with the range of per-round ratios (round i of A against round i of B). */
export function ratio(a: VariantSummary, b: VariantSummary): Spread {
  return ratioSpread(
    a.runs.map((run) => run.rps),
    b.runs.map((run) => run.rps),
  );
}
