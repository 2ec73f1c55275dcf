import { openServerDatabase } from "../../src/server/db/open";
import { config } from "../lib/config";
import type { BenchContext } from "../lib/context";
import { measureSearch, SEARCH_TARGET_MS } from "../payments-search-measure";

/**
 * Case 10: payment search (prefix or substring of external id, reference or payment id; pg_trgm indexes)
 * over 1,000,000 payments of one merchant (BENCH_SEARCH_ROWS; 20,000 in quick mode), through the service
 * verbs on the bench's database. bench/payments-search.ts runs the same measurement on its own.
 */
export async function caseSearch(ctx: BenchContext) {
  const { report } = ctx;
  const rows = Number(process.env.BENCH_SEARCH_ROWS ?? (config.quick ? 20_000 : 1_000_000));
  report.section(`10. Payment search over ${rows.toLocaleString("en-US")} payments of one merchant`);
  const handle = await openServerDatabase(ctx.db.url, { max: 2 });
  try {
    const result = await measureSearch(handle, rows, config.quick ? 20 : 100, (line) => report.text(line));
    report.table(
      ["search", "results", "median ms", "p99 ms"],
      result.timings.map((timing) => [timing.name, timing.results, timing.median, timing.p99]),
    );
    const worst = Math.max(...result.timings.map((timing) => timing.p99));
    report.target(`10. search over ${rows.toLocaleString("en-US")} payments: p99 < ${SEARCH_TARGET_MS} ms`, `${worst} ms`, result.met);
    return result;
  } finally {
    await handle.close();
  }
}
