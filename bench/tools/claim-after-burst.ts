/**
 * What a delivery claim costs right after a burst, and after a vacuum: a merchant's endpoint gets `deliveries` due at
 * once, `npm run worker` drains them to a local receiver, and then, with a few new deliveries due, the claim statement
 * is explained (analyze, buffers) as the worker runs it, three times; then VACUUM ANALYZE and again. FULL=1 prints
 * whole plans (otherwise the nodes that read 100 buffers or more). No Next.js build: the worker runs from this tree.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx node --import tsx bench/tools/claim-after-burst.ts [deliveries=30000]
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { parseEnv } from "../../src/env";
import { newId } from "../../src/lib/ids";
import { rowsOf } from "../../src/server/db/rows";
import { claimStatementFor, liveSpan, takeClaimLock } from "../../src/server/db/sql/claim-deliveries";
import { createLogger } from "../../src/server/log";
import { createRuntime } from "../../src/server/runtime";
import { createServiceContext } from "../../src/server/services/create-context";
import { registerMerchant } from "../../src/server/services/merchants/register";
import { getDefaultEndpoint } from "../../src/server/services/webhook-endpoints/fetch";
import { ENDPOINT_KEY_COLUMNS } from "../../src/server/webhooks/endpoint-key";
import { openOwnDatabase } from "../lib/own-database";

const AUTH_SECRET = "bench-secret-bench-secret-bench-secret-0";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const n = Number(process.argv[2] ?? 30_000);
  const database = await openOwnDatabase(process.env.DATABASE_URL!, { max: 4 });
  const env = parseEnv({ AUTH_SECRET, LOG_LEVEL: "warn", WEBHOOK_WORKER: "off", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  const runtime = createRuntime({ env, database: database.handle, log: createLogger("warn") });
  const db = runtime.database.db;
  const receiver = http.createServer((request, response) => request.resume().on("end", () => response.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const anonymous = createServiceContext(runtime, { type: "anonymous", ip: "192.0.2.1" }, newId("request"));
    const { merchant } = await registerMerchant({ ctx: anonymous, input: { name: "Bench", email: `bench-${newId("request").slice(-8).toLowerCase()}@example.com`, password: "bench password 0123", webhookUrl: hookUrl } });
    const endpointId = (await getDefaultEndpoint(db, merchant.id)).id;
    const seed = async (batch: string, count: number, due: string) =>
      db.execute(sql`
        with ev as (
          insert into events (id, merchant_id, type, data, created_at)
          select 'evt_' || ${batch} || lpad(i::text, ${26 - batch.length}, '0'), ${merchant.id}, 'payment.confirmed', jsonb_build_object('i', i), now()
          from generate_series(1, ${count}::int) as i returning id)
        insert into webhook_deliveries (id, merchant_id, event_id, event_created_at, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
        select 'whd_' || substr(id, 5), ${merchant.id}, id, now(), ${endpointId}, ${hookUrl}, 'pending', ${due}::timestamptz, now(), now() from ev`);
    await seed("burst", n, "infinity");
    await db.execute(sql`vacuum analyze webhook_deliveries`);
    const worker = spawn("node", ["--import", "tsx", "scripts/worker.ts", "--concurrency", "32", "--poll", "100ms"], {
      env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET, NODE_ENV: "production", LOG_LEVEL: "info", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    worker.stdout.on("data", (chunk: Buffer) => {
      if (!output.includes("worker ready")) output += chunk.toString();
    });
    while (!output.includes("worker ready")) await sleep(100);
    const started = performance.now();
    await db.execute(sql`update webhook_deliveries set next_attempt_at = now() where id like 'whd_burst%'`);
    await db.execute(sql`select pg_notify('webhook_deliveries_due', '')`);
    for (;;) {
      const [row] = rowsOf<{ left: boolean }>(await db.execute(sql`select exists (select 1 from webhook_deliveries where status in ('pending', 'delivering')) as left`));
      if (!row!.left) break;
      await sleep(50);
    }
    console.log(`drained ${n} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const exited = new Promise((resolve) => worker.on("exit", resolve));
    worker.kill("SIGTERM");
    await exited;

    const explain = async (label: string) => {
      await seed(`x${Date.now().toString(36)}`, 8, "-infinity");
      for (let i = 0; i < 3; i++) {
        const at = new Date();
        await db
          .transaction(async (tx) => {
            const input = { keyColumns: ENDPOINT_KEY_COLUMNS, now: at.toISOString(), lease: new Date(at.getTime() + 60_000).toISOString(), limit: 32, perEndpoint: 16 };
            const spanStarted = performance.now();
            const live = (await liveSpan(tx))!;
            const spanMs = performance.now() - spanStarted;
            const statement = claimStatementFor(input, live);
            await takeClaimLock(tx);
            const plan = rowsOf<Record<string, string>>(await tx.execute(sql`explain (analyze, buffers, summary) ${statement.inlineParams()}`));
            const lines = plan.map((row) => Object.values(row)[0]!);
            console.log(`--- ${label}, run ${i + 1}: live span read in ${spanMs.toFixed(1)} ms`);
            console.log(process.env.FULL ? lines.join("\n") : lines.filter((line) => /Planning|Execution|^\S|Buffers: shared hit=\d{3,}/.test(line)).join("\n"));
            tx.rollback();
          })
          .catch((error: unknown) => {
            if (!(error instanceof Error && error.message.includes("Rollback"))) throw error;
          });
      }
      await db.execute(sql`delete from webhook_deliveries where status = 'pending'`);
    };
    await explain("right after the burst");
    await db.execute(sql`vacuum analyze webhook_deliveries`);
    await explain("after VACUUM ANALYZE");
  } finally {
    receiver.close();
    await database.close();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
