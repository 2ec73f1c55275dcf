/**
 * Was the delivery worker of this checkout faster than another's? `npm run worker` from each checkout in turn on one
 * database, draining the same backlog to one local receiver, rounds interleaved (A B, B A, …) so the shared
 * machine's drift falls on both. No Next.js build: the merchant and its endpoints come from the service layer.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx node --import tsx bench/tools/ab-worker.ts <other checkout> [rounds=3] [deliveries=10000] [endpoints=1]
 *
 * The other checkout needs its own `node_modules` (a link to this one's is enough when the dependencies match).
 * Each round starts the worker (`--concurrency 32 --poll 100ms`, as case 5), releases the backlog, waits until
 * every delivery is recorded as delivered, and stops it. `endpoints` > 1 spreads the backlog over that many
 * endpoints of the merchant (at most 16, a merchant's limit; case 7 spreads its 20 over merchants). Prints one JSON line per round and a summary.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import { parseEnv } from "../../src/env";
import { newId } from "../../src/lib/ids";
import { rowsOf } from "../../src/server/db/rows";
import { createLogger } from "../../src/server/log";
import { createRuntime } from "../../src/server/runtime";
import { createServiceContext } from "../../src/server/services/create-context";
import { registerMerchant } from "../../src/server/services/merchants/register";
import { createEndpoint } from "../../src/server/services/webhook-endpoints/create";
import { getDefaultEndpoint } from "../../src/server/services/webhook-endpoints/fetch";
import { openOwnDatabase } from "../lib/own-database";
import { median } from "../lib/stats";

const AUTH_SECRET = "bench-secret-bench-secret-bench-secret-0";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const [other, roundsArg, deliveriesArg, endpointsArg] = process.argv.slice(2);
  if (!other || !process.env.DATABASE_URL) throw new Error("usage: DATABASE_URL=… ab-worker.ts <other checkout> [rounds] [deliveries] [endpoints]");
  const rounds = Number(roundsArg ?? 3);
  const n = Number(deliveriesArg ?? 10_000);
  const endpointCount = Number(endpointsArg ?? 1);
  const variants = [
    { name: "this", dir: path.resolve(import.meta.dirname, "..", "..") },
    { name: "other", dir: path.resolve(other) },
  ];
  const database = await openOwnDatabase(process.env.DATABASE_URL, { max: 4 });
  const env = parseEnv({ AUTH_SECRET, LOG_LEVEL: "warn", WEBHOOK_WORKER: "off", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  const runtime = createRuntime({ env, database: database.handle, log: createLogger("warn") });
  const db = runtime.database.db;
  let received = 0;
  const receiver = http.createServer((request, response) => {
    request.resume().on("end", () => {
      received++;
      response.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const rates: Record<string, number[]> = { this: [], other: [] };
  try {
    const anonymous = createServiceContext(runtime, { type: "anonymous", ip: "192.0.2.1" }, newId("request"));
    const { merchant } = await registerMerchant({
      ctx: anonymous,
      input: { name: "Bench", email: `bench-${newId("request").slice(-8).toLowerCase()}@example.com`, password: "bench password 0123", webhookUrl: hookUrl },
    });
    const ctx = createServiceContext(runtime, { type: "system", merchantId: merchant.id }, newId("request"));
    const endpoints = [(await getDefaultEndpoint(db, merchant.id)).id];
    while (endpoints.length < endpointCount) endpoints.push((await createEndpoint({ ctx, input: { url: `${hookUrl}/${endpoints.length}` } })).endpoint.id);
    const endpointsArray = `{${endpoints.join(",")}}`;

    for (let round = -1; round < rounds; round++) {
      // A warm-up of each (round −1, not counted), then A B, B A, …
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const batch = `ab${round + 1}${variant.name[0]}${Date.now().toString(36)}`.slice(0, 14);
        await db.execute(sql`
          with ev as (
            insert into events (id, merchant_id, type, data, created_at)
            select 'evt_' || ${batch} || lpad(i::text, ${26 - batch.length}, '0'), ${merchant.id}, 'payment.confirmed',
                   jsonb_build_object('id', 'pay_' || lpad(i::text, 26, '0'), 'amount', '19.99', 'currency', 'USD', 'status', 'confirmed'), now()
            from generate_series(1, ${n}::int) as i
            returning id)
          insert into webhook_deliveries (id, merchant_id, event_id, event_created_at, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
          select 'whd_' || substr(id, 5), ${merchant.id}, id, now(), (${endpointsArray}::text[])[1 + (row_number() over ()) % ${endpoints.length}],
                 ${hookUrl}, 'pending', 'infinity', now(), now() from ev`);
        await db.execute(sql`vacuum analyze webhook_deliveries`);
        const worker = spawn("node", ["--import", "tsx", "scripts/worker.ts", "--concurrency", "32", "--poll", "100ms"], {
          cwd: variant.dir,
          env: { ...process.env, DATABASE_URL: database.url, AUTH_SECRET, NODE_ENV: "production", LOG_LEVEL: "info", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        // Info level, as case 5 runs it (one line per attempt): "worker ready" is an info line. Kept until it shows.
        let output = "";
        const keep = (chunk: Buffer) => {
          if (!output.includes("worker ready")) output += chunk.toString();
        };
        worker.stdout.on("data", keep);
        worker.stderr.on("data", keep);
        const exited = new Promise((resolve) => worker.on("exit", resolve));
        // A round that throws must not leave its worker running (its database is dropped at the end).
        const failed = (message: string) => {
          worker.kill("SIGKILL");
          return new Error(message);
        };
        for (let waited = 0; !output.includes("worker ready"); waited += 100) {
          if (waited > 180_000 || worker.exitCode !== null) throw failed(`worker of ${variant.name} did not start:\n${output}`);
          await sleep(100);
        }
        received = 0;
        const started = performance.now();
        await db.execute(sql`update webhook_deliveries set next_attempt_at = now() where id like ${`whd_${batch}%`}`);
        await db.execute(sql`select pg_notify('webhook_deliveries_due', '')`);
        for (;;) {
          const [row] = rowsOf<{ left: boolean }>(
            await db.execute(sql`select exists (select 1 from webhook_deliveries where merchant_id = ${merchant.id} and status in ('pending', 'delivering') and id like ${`whd_${batch}%`}) as left`),
          );
          if (!row!.left) break;
          if (performance.now() - started > 300_000) throw failed(`${variant.name}: not drained within 5 min`);
          await sleep(50);
        }
        const seconds = (performance.now() - started) / 1000;
        worker.kill("SIGTERM");
        await exited;
        const rate = n / seconds;
        console.log(JSON.stringify({ round: round + 1, variant: variant.name, deliveries: n, endpoints: endpoints.length, perSecond: Math.round(rate), received }));
        if (round >= 0) rates[variant.name]!.push(rate);
      }
    }
    const ratios = rates.this!.map((rate, i) => rate / rates.other![i]!);
    console.log(
      JSON.stringify({
        summary: true,
        deliveries: n,
        endpoints: endpoints.length,
        thisPerSecond: rates.this!.map(Math.round),
        otherPerSecond: rates.other!.map(Math.round),
        thisMedian: Math.round(median(rates.this!)),
        otherMedian: Math.round(median(rates.other!)),
        ratioOfMedians: Number((median(rates.this!) / median(rates.other!)).toFixed(2)),
        perRoundRatios: ratios.map((ratio) => Number(ratio.toFixed(2))),
      }),
    );
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    receiver.close();
    // The runtime owns nothing else here: closing the database (and dropping it) is the whole clean-up.
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
