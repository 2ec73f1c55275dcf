import { execFileSync } from "node:child_process";
import { config } from "../lib/config";
import { ROOT } from "../lib/env";
import type { BenchContext } from "../lib/context";

const TARGET_SECONDS = { embedded: 10, server: 5 } as const;
const TARGET_RSS_MIB = 100;

/**
 * Case 8: a 100,000-line settlement file reconciled against 100,000 payments (bench/reconciliation.ts),
 * in a process of its own per database so its RSS is the reconciliation's alone: time and peak RSS growth.
 */
export async function caseReconciliation(ctx: BenchContext) {
  const { report } = ctx;
  report.section("8. Reconciliation: a 100,000-line settlement file, streamed");
  const lines = config.quick ? 10_000 : 100_000;
  const rows: (string | number)[][] = [];
  for (const database of ["embedded", "server"] as const) {
    const output = execFileSync("node", ["--import", "tsx", "bench/reconciliation.ts"], {
      cwd: ROOT,
      env: { ...process.env, RECONCILIATION_LINES: String(lines), DATABASE_URL: database === "server" ? config.adminUrl : "" },
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = JSON.parse(output.trim().split("\n").at(-1)!) as { seconds: number; rssGrowthMiB: number };
    rows.push([database, lines, result.seconds, result.rssGrowthMiB]);
    report.target(`${database}: ${lines} lines in < ${TARGET_SECONDS[database]} s`, `${result.seconds} s`, result.seconds < TARGET_SECONDS[database]);
    report.target(`${database}: peak RSS growth < ${TARGET_RSS_MIB} MiB`, `${result.rssGrowthMiB} MiB`, result.rssGrowthMiB < TARGET_RSS_MIB);
    report.data[`reconciliation_${database}`] = result;
  }
  report.table(["database", "lines", "seconds", "peak RSS growth (MiB)"], rows);
}
