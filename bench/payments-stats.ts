/**
 * Measures the payment statistics and list queries over 100,000 payments of one merchant (plus as many of
 * other merchants, and webhook deliveries), on the PostgreSQL server or embedded PGlite:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/payments-stats.ts
 *   npx tsx bench/payments-stats.ts            # embedded
 *
 * It creates and drops its own database (server) or uses an in-memory one (embedded). Not a unit test:
 * timings depend on the machine; run it when changing these queries or their indexes.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { parseEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { openEmbeddedDatabase, openServerDatabase } from "../src/server/db/open";
import { merchants } from "../src/server/db/schema";
import { createLogger } from "../src/server/log";
import type { ServiceContext } from "../src/server/services/context";
import { listPayments } from "../src/server/services/payments/list";
import { getPaymentStats } from "../src/server/services/payments/stats";
import { serverQuery } from "../tests/support/server-admin";
import { databaseUrl, refuseNonLocal } from "../tests/support/server-url";

const PAYMENTS = 100_000;
const serverUrl = process.env.DATABASE_URL;

async function main() {
  let dropDatabase = async () => {};
  let handle;
  if (serverUrl) {
    refuseNonLocal(serverUrl);
    const name = `mps_bench_${randomBytes(4).toString("hex")}`;
    await serverQuery(serverUrl, `create database "${name}"`);
    handle = await openServerDatabase(databaseUrl(serverUrl, name));
    dropDatabase = async () => {
      if (process.env.BENCH_KEEP_DATABASE) console.log(`kept database ${name}`);
      else await serverQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    };
  } else {
    handle = await openEmbeddedDatabase(undefined);
  }
  const db = handle.db;
  try {
    const [shop, other] = [newId("merchant"), newId("merchant")];
    const now = new Date();
    for (const id of [shop, other]) {
      await db.insert(merchants).values({ id, name: id, email: `${id}@example.com`, createdAt: now, updatedAt: now });
    }
    const started = performance.now();
    // Generated in SQL: 100k rows per merchant over the last year, four currencies, three statuses.
    for (const merchantId of [shop, other]) {
      await db.execute(sql`
        insert into payments (id, merchant_id, external_id, amount, currency, status, created_at, updated_at)
        select 'pay_' || lpad(to_hex(g), 22, '0') || ${merchantId.slice(-4)}, ${merchantId}, 'ext-' || g,
               round((random() * 1000)::numeric, 2), (array['USD','EUR','JPY','BTC'])[1 + g % 4],
               (array['confirmed','confirmed','pending','failed'])[1 + floor(random() * 4)::int],
               now() - random() * interval '365 days', now()
        from generate_series(1, ${PAYMENTS}) g`);
      await db.execute(sql`
        insert into events (id, merchant_id, type, data, created_at)
        select 'evt_' || lpad(to_hex(g), 22, '0') || ${merchantId.slice(-4)}, ${merchantId}, 'payment.confirmed', '{}'::jsonb,
               now() - random() * interval '365 days'
        from generate_series(1, ${PAYMENTS}) g`);
      await db.execute(sql`
        insert into webhook_deliveries (id, merchant_id, event_id, event_created_at, endpoint_id, url, status, created_at, updated_at)
        select 'whd_' || substr(id, 5), merchant_id, id, created_at, (select e.id from webhook_endpoints e where e.merchant_id = events.merchant_id and e.is_default), 'https://hooks.example',
               (array['delivered','delivered','delivered','failed','pending'])[1 + (random() * 4)::int], created_at, created_at
        from events where merchant_id = ${merchantId}`);
    }
    await db.execute(sql`analyze`);
    console.log(`seeded ${2 * PAYMENTS} payments and deliveries in ${Math.round(performance.now() - started)} ms (${handle.kind})`);

    const env = parseEnv({ NODE_ENV: "test", AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0" });
    const ctx: ServiceContext = {
      requestId: "req_bench",
      db,
      reader: db,
      actor: { type: "api_key", merchantId: shop, keyId: "key_bench", livemode: true },
      log: createLogger("silent"),
      env,
      now: () => new Date(),
    };
    const time = async (label: string, work: () => Promise<unknown>) => {
      await work(); // warm the cache once, then measure the median of five
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await work();
        runs.push(performance.now() - t);
      }
      runs.sort((a, b) => a - b);
      console.log(`${label.padEnd(48)} median ${runs[2]!.toFixed(1)} ms  (min ${runs[0]!.toFixed(1)}, max ${runs[4]!.toFixed(1)})`);
    };
    const year = { from: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10) };
    await time("stats, default 30 days (~8k payments)", () => getPaymentStats({ ctx, input: {} }));
    await time("stats, 366 days (all 100k payments)", () => getPaymentStats({ ctx, input: year }));
    await time("list, first page of 100", () => listPayments({ ctx, input: { limit: 100 } }));
    let cursor: string | undefined;
    for (let i = 0; i < 500; i++) cursor = (await listPayments({ ctx, input: { limit: 100, cursor } })).nextCursor ?? undefined;
    await time("list, page 501 of 100 (keyset)", () => listPayments({ ctx, input: { limit: 100, cursor } }));
    await time("list, status=pending currency=EUR", () => listPayments({ ctx, input: { limit: 100, status: "pending", currency: "EUR" } }));
  } finally {
    await handle.close();
    await dropDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
