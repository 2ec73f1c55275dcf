/**
 * Payment search over 1,000,000 payments of one merchant (and 100,000 of another), on the PostgreSQL server
 * or embedded PGlite — the measurement behind case 10 of `npm run bench`, without building the app:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/payments-search.ts
 *   BENCH_SEARCH_ROWS=100000 npx tsx bench/payments-search.ts     # embedded, fewer rows
 *
 * It creates and drops its own database (server) or uses an in-memory one (embedded).
 */
import { openOwnDatabase } from "./lib/own-database";
import { measureSearch, SEARCH_TARGET_MS } from "./payments-search-measure";

const rows = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);

async function main() {
  const { handle, close } = await openOwnDatabase(process.env.DATABASE_URL, { max: 2 });
  try {
    const result = await measureSearch(handle, rows, 100, (line) => console.log(line));
    for (const timing of result.timings) {
      console.log(`${timing.name.padEnd(56)} ${String(timing.results).padStart(6)} results  median ${timing.median} ms  p99 ${timing.p99} ms`);
    }
    console.log(`target p99 < ${SEARCH_TARGET_MS} ms: ${result.met ? "met" : "MISSED"} (${handle.kind})`);
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
