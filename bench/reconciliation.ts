/**
 * Reconciles a 100,000-line settlement file against 100,000 payments of one merchant, in this process, on
 * the PostgreSQL server or embedded PGlite, and prints the time and the peak growth of this process's RSS:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/reconciliation.ts
 *   npx tsx bench/reconciliation.ts            # embedded
 *
 * The file is generated as it streams (the bench holds none of it either): mostly matching lines, every
 * 50th with another amount, every 100th unknown to the ledger, every 1000th malformed; the last 1% of the
 * payments are left out of the file (`missingInFile`). Prints one JSON line last, for `npm run bench`
 * (bench/cases/reconciliation.ts). Targets (docs/reconciliation.md): < 10 s embedded, < 5 s server, < 100 MB.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { parseEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { openEmbeddedDatabase, openServerDatabase } from "../src/server/db/open";
import { merchants } from "../src/server/db/schema";
import { createLogger } from "../src/server/log";
import type { ServiceContext } from "../src/server/services/context";
import { createReconciliation } from "../src/server/services/reconciliations/create";
import { serverQuery } from "../tests/support/server-admin";
import { databaseUrl, refuseNonLocal } from "../tests/support/server-url";

const LINES = Number(process.env.RECONCILIATION_LINES ?? 100_000);
const serverUrl = process.env.DATABASE_URL;

/** The settlement file, generated a chunk of lines at a time as the reader pulls. */
export function settlementFile(lines: number, day: string): ReadableStream<Uint8Array> {
  let next = 1;
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      if (next > lines) return controller.close();
      const rows: string[] = next === 1 ? ["externalId,amount,currency,settledAt,fee"] : [];
      for (const end = Math.min(lines, next + 499); next <= end; next++) {
        if (next % 1000 === 0) rows.push(`seed-r-${next},not-a-number,USD,${day},`);
        else if (next % 100 === 0) rows.push(`unknown-${next},19.99,USD,${day},0.30`);
        else rows.push(`seed-r-${next},${next % 50 === 0 ? "19.98" : "19.99"},USD,${day},0.30`);
      }
      controller.enqueue(encoder.encode(rows.join("\n") + "\n"));
    },
  });
}

async function main() {
  let dropDatabase = async () => {};
  let handle;
  if (serverUrl) {
    refuseNonLocal(serverUrl);
    const name = `mps_bench_${randomBytes(4).toString("hex")}`;
    await serverQuery(serverUrl, `create database "${name}"`);
    handle = await openServerDatabase(databaseUrl(serverUrl, name));
    dropDatabase = async () => {
      await serverQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    };
  } else {
    handle = await openEmbeddedDatabase(undefined);
  }
  const db = handle.db;
  try {
    const merchantId = newId("merchant");
    const now = new Date();
    await db.insert(merchants).values({ id: merchantId, name: "bench", email: `${merchantId}@example.com`, createdAt: now, updatedAt: now });
    // The payments of today, 1% more than the file lists.
    const payments = Math.round(LINES * 1.01);
    await db.execute(sql`
      insert into payments (id, merchant_id, external_id, amount, currency, status, confirmed_at, created_at, updated_at)
      select 'pay_r' || lpad(i::text, 25, '0'), ${merchantId}, 'seed-r-' || i, '19.99', 'USD', 'confirmed', now(), now(), now()
      from generate_series(1, ${payments}::int) as i`);
    await db.execute(sql`analyze`);
    const ctx: ServiceContext = {
      requestId: "req_bench",
      db,
      reader: db,
      actor: { type: "api_key", merchantId, keyId: "key_bench", livemode: true },
      log: createLogger("silent"),
      env: parseEnv({ NODE_ENV: "test", AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0" }),
      now: () => new Date(),
    };

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const started = performance.now();
    const report = await createReconciliation({ ctx, input: { file: settlementFile(LINES, now.toISOString().slice(0, 10)) } });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const result = { database: handle.kind, lines: LINES, seconds: Number(seconds.toFixed(2)), rssGrowthMiB: Math.round((peak - baseline) / 2 ** 20), summary: report.summary };
    console.log(`${handle.kind}: ${LINES} lines in ${result.seconds} s, peak RSS growth ${result.rssGrowthMiB} MiB, ${JSON.stringify(report.summary)}`);
    console.log(JSON.stringify(result));
  } finally {
    await handle.close();
    await dropDatabase();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
