import { sql } from "drizzle-orm";
import { openEmbeddedDatabase } from "./src/server/db/open";
import { merchants } from "./src/server/db/schema";
import { seedDueDeliveries } from "./tests/integration/webhooks/seed";
import { claimDueDeliveries } from "./src/server/webhooks/claim";

const h = await openEmbeddedDatabase(undefined);
for (const m of ["m1", "m2", "m3"]) await h.db.insert(merchants).values({ id: m, name: m, email: `${m}@x` });
await seedDueDeliveries(h.db, { merchantId: "m1", url: "http://x/1", count: Number(process.env.N ?? 300) });
await seedDueDeliveries(h.db, { merchantId: "m2", url: "http://x/2", count: 3 });
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const c = await claimDueDeliveries(h.db, { limit: 256, leaseMs: 60000, now: new Date(), perEndpoint: 16 });
  console.log("claim", c.length, (performance.now() - t).toFixed(1));
}
await h.db.execute(sql`analyze`);
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const c = await claimDueDeliveries(h.db, { limit: 256, leaseMs: 60000, now: new Date(), perEndpoint: 16 });
  console.log("claim after analyze", c.length, (performance.now() - t).toFixed(1));
}
await h.close();
const h2 = await openEmbeddedDatabase(undefined);
for (let i = 0; i < 5; i++) {
  let t = performance.now();
  await h2.db.execute(sql`select 1`);
  const a = performance.now() - t; t = performance.now();
  await h2.db.transaction(async (tx) => { await tx.execute(sql`select pg_advisory_xact_lock(1)`); await tx.execute(sql`select 1`); });
  console.log("select1", a.toFixed(1), "tx", (performance.now() - t).toFixed(1));
}
await h2.close();
