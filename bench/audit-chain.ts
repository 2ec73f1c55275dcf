/**
 * What the audit log's hash chain costs a refund made by a team member (one upsert of the merchant's chain head and
 * the row, in the refund's transaction; `POST refund` with an API key writes none), on the server or embedded:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/audit-chain.ts
 *   npx tsx bench/audit-chain.ts            # embedded
 *
 * The same verb with and without its audit row, interleaved (A, B, A, B…) so drift hits both alike: `createRefund`
 * (audited) and `recordRefund` in a transaction (the same refund, no audit row); sequential, then 8 at once on one
 * merchant (where the head's lock makes that merchant's refunds take turns for the audit statement). `POST
 * payment/confirm` writes no audit row (docs/decisions.md, "The audit log's hash chain"). Figures in docs/decisions.md.
 */
import { parseEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { withTransaction } from "../src/server/db/transaction";
import { createLogger } from "../src/server/log";
import { createRuntime } from "../src/server/runtime";
import { inTransaction, type ServiceContext } from "../src/server/services/context";
import { createServiceContext } from "../src/server/services/create-context";
import { registerMerchant } from "../src/server/services/merchants/register";
import { confirmPayment } from "../src/server/services/payments/confirm";
import { createRefund, recordRefund } from "../src/server/services/refunds/create";
import { createRefundInput } from "../src/server/services/refunds/schemas";
import { openOwnDatabase } from "./lib/own-database";

const ROUNDS = 400;
const CONCURRENT = 8;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
};

async function main() {
  const database = await openOwnDatabase(process.env.DATABASE_URL, { max: 10 });
  const env = parseEnv({ AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0", LOG_LEVEL: "warn", WEBHOOK_WORKER: "off" });
  const runtime = createRuntime({ env, database: database.handle, log: createLogger("warn") });
  try {
    const anonymous = createServiceContext(runtime, { type: "anonymous", ip: "192.0.2.1" }, newId("request"));
    const { merchant } = await registerMerchant({
      ctx: anonymous,
      input: { name: "Bench", email: `bench-${newId("request").slice(-8).toLowerCase()}@example.com`, password: "bench password 0123" },
    });
    const ctx: ServiceContext = createServiceContext(runtime, { type: "api_key", merchantId: merchant.id, keyId: "key_bench", livemode: true }, newId("request"), {
      ip: "192.0.2.1",
      userAgent: "bench",
    });
    const payment = async () => (await confirmPayment({ ctx, input: { externalId: newId("request"), amount: "10.00", currency: "EUR" } })).payment.id;
    // A team member's refund is audited (an API key's is not: docs/decisions.md, "The audit log's hash chain").
    const member = createServiceContext(runtime, { type: "user", userId: "usr_bench", merchantId: merchant.id, livemode: true }, newId("request"), ctx.client);
    const audited = async (paymentId: string) => createRefund({ ctx: member, input: { paymentId, amount: "1.00" } });
    const unaudited = async (paymentId: string) =>
      withTransaction(ctx.db, (tx) => recordRefund(inTransaction(ctx, tx), createRefundInput.parse({ paymentId, amount: "1.00" })));

    const ids = await Promise.all(Array.from({ length: ROUNDS * 2 }, () => payment()));
    const times = { audited: [] as number[], unaudited: [] as number[] };
    for (let i = 0; i < ROUNDS * 2; i++) {
      const kind = i % 2 === 0 ? "audited" : "unaudited";
      const started = performance.now();
      await (kind === "audited" ? audited(ids[i]!) : unaudited(ids[i]!));
      times[kind].push(performance.now() - started);
    }
    console.log(`database: ${database.handle.kind}`);
    console.log(`POST refund's verb, sequential, with its audit row:    ${summary(times.audited)}`);
    console.log(`POST refund's verb, sequential, without an audit row:  ${summary(times.unaudited)}`);

    for (const kind of ["audited", "unaudited", "audited", "unaudited"] as const) {
      const batch = await Promise.all(Array.from({ length: ROUNDS }, () => payment()));
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENT }, async () => {
          while (next < batch.length) {
            const paymentId = batch[next++]!;
            await (kind === "audited" ? audited(paymentId) : unaudited(paymentId));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(`${CONCURRENT} at once on one merchant, ${kind.padEnd(9)}: ${(ROUNDS / seconds).toFixed(0)} refunds/s`);
    }
  } finally {
    await database.close();
  }
}

await main();
