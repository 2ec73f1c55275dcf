import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { compare, type VariantSummary } from "../lib/compare";
import { config, AUTH_SECRET } from "../lib/config";
import { baseUrl, registerMerchant, routeExists, seedPayments, type BenchContext, type Merchant } from "../lib/context";
import type { LoadSpec } from "../lib/load";
import { sleep, startServer, type Server } from "../lib/proc";
import { fmtSpread, percentile, ratioSpread, round, type Spread } from "../lib/stats";
import { parseEnv } from "../../src/env";
import { newId } from "../../src/lib/ids";
import { openServerDatabase } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { createLogger } from "../../src/server/log";
import { createRuntime } from "../../src/server/runtime";
import { createServiceContext } from "../../src/server/services/create-context";
import { maintainLogPartitions } from "../../src/server/services/events/partitions";
import { createRefund } from "../../src/server/services/refunds/create";
import { apiSpecs } from "./full-stack";

/** Server CPU of a refund at most this many times a confirm's (issue 34). */
const CPU_BOUND = 1.1;
const LAG_RATE = 200;
/** Connections (and refunds in flight at once) of the lag part's service calls. */
const LAG_CONNECTIONS = 16;
/** Each refund takes this much of a seeded 19.99 payment: three refunds fit in each, so a payment's lock and sum see 0–2 earlier refunds. */
const REFUND_AMOUNT = "5.00";
const REFUNDS_PER_PAYMENT = 3;
/** Refunds a second per variant the seeded payments are sized for (beyond it, a payment's fourth refund is a 409). */
const MOST_PER_SECOND = 1_000;

/**
 * Case 13, refunds (docs/refunds.md): `POST /refund` against `POST /payment/confirm`, interleaved on the same
 * server, judged on the web process tree's CPU per request (as cases 2 and 11 read it); then refund committed →
 * first webhook attempt at 200 refunds/s, delivered by an `npm run worker` process to a local receiver (like case 7).
 */
export async function caseRefunds(ctx: BenchContext) {
  const { report } = ctx;
  report.section("13. Refunds: POST /refund's server CPU against a confirm's; refund → first webhook attempt");
  // Once more if the first fails: the pooled keep-alive connection of the registration may have just been closed by
  // the server (its 5 s keep-alive timeout ends about when seeding does): "other side closed".
  const probe = () => routeExists(ctx.next, "POST", "/api/v1/refund", ctx.merchant.apiKey);
  if (!(await probe().catch(probe))) {
    report.text("Skipped: the refund routes are not in this build yet.");
    return;
  }
  await refundCpu(ctx);
  await refundLag(ctx);
}

/**
 * A refund of 5.00 of the next seeded payment per request, round robin over the variant's own payments: one payment
 * is refunded again only after every other one was (never by two requests at once: that would measure its row lock's
 * queue, not a refund), at most three times.
 */
function refundSpec(server: Server, merchant: Merchant, paymentIds: string[], status: "pending" | "succeeded"): () => LoadSpec {
  const auth = { authorization: `Bearer ${merchant.apiKey}` };
  const prefix = `rf-${status}-${Date.now().toString(36)}`;
  let counter = 0;
  return () => ({
    url: `${baseUrl(server)}/api/v1/refund`,
    connections: config.connections,
    duration: config.duration,
    method: "POST",
    setupRequest: (request) => {
      const n = counter++;
      const paymentId = paymentIds[n % paymentIds.length]!;
      return {
        ...request,
        headers: { ...auth, "content-type": "application/json", "idempotency-key": `${prefix}-${n}` },
        body: JSON.stringify({ paymentId, amount: REFUND_AMOUNT, currency: "USD", reason: "requested_by_customer", externalId: `${prefix}-${n}`, status }),
      };
    },
  });
}

/** `count` seeded payments of the merchant (19.99 USD, confirmed), their ids oldest last. */
async function seededPaymentIds(ctx: BenchContext, merchantId: string, count: number, tag: string): Promise<string[]> {
  await seedPayments(ctx.db, merchantId, count, tag);
  await ctx.db.query(sql`analyze payments`);
  return Array.from({ length: count }, (_, i) => `pay_${tag}${String(i + 1).padStart(26 - tag.length, "0")}`);
}

/** Per-round ratio of the server's CPU per request, a over b, with the ratio of medians. */
function cpuRatio(a: VariantSummary, b: VariantSummary): Spread {
  const perRequest = (summary: VariantSummary) => summary.runs.map((run) => run.cpu.server?.usPerRequest ?? NaN);
  return ratioSpread(perRequest(a), perRequest(b));
}

async function refundCpu(ctx: BenchContext) {
  const { report } = ctx;
  // Each refund variant its own payments, enough that none is refunded a fourth time at up to MOST_PER_SECOND over its warm-up and rounds.
  const perVariant = Math.ceil(((config.warmup + config.reps * config.duration) * MOST_PER_SECOND) / REFUNDS_PER_PAYMENT);
  const pendingPayments = await seededPaymentIds(ctx, ctx.merchant.id, perVariant, "rp");
  const succeededPayments = await seededPaymentIds(ctx, ctx.merchant.id, perVariant, "rs");
  report.text(
    `${config.connections} connections, ${config.duration} s per run, ${config.reps} interleaved rounds, one server. Confirm as in case 2; ` +
      `each refund takes ${REFUND_AMOUNT} of a seeded confirmed payment of 19.99 USD, round robin over ${perVariant.toLocaleString("en-US")} ` +
      `payments of its own (a payment is refunded again only after all others, at most ${REFUNDS_PER_PAYMENT} times), with \`currency\` and a new externalId and Idempotency-Key each. Two refunds: ` +
      "`pending` (the default: one `refund.created` event) and `succeeded` (the processor already paid: `refund.created` and " +
      "`refund.succeeded`, and the refund's amount added to the payment's refunded amount).",
  );
  report.text("");
  const targets = ctx.targets(ctx.next);
  const confirmSpec = apiSpecs(ctx.next, ctx.merchant, ctx.paymentId).confirm;
  const [confirm, pending, succeeded] = await compare("refunds CPU", [
    { name: "POST /payment/confirm", spec: confirmSpec, targets },
    { name: "POST /refund (pending)", spec: refundSpec(ctx.next, ctx.merchant, pendingPayments, "pending"), targets },
    { name: "POST /refund (succeeded)", spec: refundSpec(ctx.next, ctx.merchant, succeededPayments, "succeeded"), targets },
  ]);
  report.variants([confirm!, pending!, succeeded!], ["server", "postgres", "autocannon"]);
  const failed = pending!.non2xx + pending!.errors + succeeded!.non2xx + succeeded!.errors;
  const pendingRatio = cpuRatio(pending!, confirm!);
  const succeededRatio = cpuRatio(succeeded!, confirm!);
  report.text(`Refunds answered other than 2xx or not at all: ${failed}.`);
  report.target(
    `13. POST /refund (pending) server CPU/request within ${Math.round((CPU_BOUND - 1) * 100)} % of POST /payment/confirm's`,
    `${fmtSpread(pendingRatio, 2)} × (${round(pending!.cpuUsPerRequest.server ?? NaN)} against ${round(confirm!.cpuUsPerRequest.server ?? NaN)} µs)`,
    pendingRatio.median <= CPU_BOUND && failed === 0,
  );
  report.target(
    `13. POST /refund (succeeded) server CPU/request within ${Math.round((CPU_BOUND - 1) * 100)} % of POST /payment/confirm's`,
    `${fmtSpread(succeededRatio, 2)} × (${round(succeeded!.cpuUsPerRequest.server ?? NaN)} µs)`,
    succeededRatio.median <= CPU_BOUND && failed === 0,
  );
  report.data.refundsCpu = { confirm, pending, succeeded, pendingRatio, succeededRatio };
}

/**
 * Refunds recorded one transaction each at `LAG_RATE`/s for `lagSeconds` through the service (`createRefund`, what
 * `POST /refund` calls), many in flight; the lag is the receiver's first arrival of the refund's `refund.created`
 * event minus the moment its transaction committed.
 */
async function refundLag(ctx: BenchContext) {
  const { report, db } = ctx;
  const receiver = await startServer({
    name: "receiver-13",
    command: "node",
    args: ["--import", "tsx", "bench/receiver.ts"],
    port: ctx.nextPort(),
    logFile: path.join(ctx.logDir, "receiver-13.log"),
    env: {},
  });
  const hookUrl = `http://127.0.0.1:${receiver.port}/hook`;
  let worker: Server | undefined;
  let database: DatabaseHandle | undefined;
  try {
    const merchant = await registerMerchant(ctx.next, "refunds", hookUrl);
    const total = LAG_RATE * config.lagSeconds;
    // The tag is Crockford base32, like every id's body ("l" is not: isId would refuse the ids).
    const paymentIds = await seededPaymentIds(ctx, merchant.id, total, "rq");
    database = await openServerDatabase(db.url, { max: LAG_CONNECTIONS });
    const runtime = createRuntime({
      env: parseEnv({ AUTH_SECRET, LOG_LEVEL: "warn", WEBHOOK_WORKER: "off", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }),
      database,
      log: createLogger("warn"),
    });
    const actor = { type: "api_key" as const, merchantId: merchant.id, keyId: "bench", livemode: true };
    // The logs' partitions a worker makes when it first starts on a fresh database (27 here: the coming week's and
    // months'), made before the flow: made at the worker's start they stalled the outbox for a second or more of the
    // measured 20 s. In service that is a deployment's first start; then one day a week ahead each day, which stalls
    // no write (docs/operations.md, "Partitions and retention").
    await maintainLogPartitions(database.db, { now: new Date(), retentionDays: 30 });
    // Earlier cases' pending deliveries (to a closed port) would compete with the refunds': hold them back.
    await db.query(sql`update webhook_deliveries set next_attempt_at = 'infinity' where status = 'pending'`);
    worker = await startServer({
      name: "worker-13",
      command: "node",
      args: ["--import", "tsx", "scripts/worker.ts"],
      port: receiver.port,
      logFile: path.join(ctx.logDir, "worker-13.log"),
      env: { DATABASE_URL: db.url, AUTH_SECRET, NODE_ENV: "production", LOG_LEVEL: config.logLevel, WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
    });
    // Ready once it says so (tsx compiles it first: seconds on a loaded machine), or refunds would wait for its start.
    const workerLog = path.join(ctx.logDir, "worker-13.log");
    for (let waited = 0; !(existsSync(workerLog) && readFileSync(workerLog, "utf8").includes("worker ready")); waited += 200) {
      if (waited > 120_000) throw new Error("worker-13 did not say it was ready within 2 min");
      await sleep(200);
    }
    await fetch(`http://127.0.0.1:${receiver.port}/reset`, { method: "POST" });
    const committed = new Map<string, number>();
    let refused = 0;
    const refusals = new Map<string, number>();
    const started = Date.now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / LAG_RATE - Date.now();
      if (wait > 1) await sleep(wait);
      // At most one refund per connection in flight: beyond that the pool's queue times out (a loaded machine may not
      // keep up with the rate: then the offered rate below says what it was).
      while (inFlight.size >= LAG_CONNECTIONS) await Promise.race(inFlight);
      const task = createRefund({ ctx: createServiceContext(runtime, actor, newId("request")), input: { paymentId: paymentIds[i]!, amount: REFUND_AMOUNT, currency: "USD", reason: "requested_by_customer" } })
        .then(({ refund }) => void committed.set(refund.id, Date.now()))
        .catch((error: unknown) => {
          refused++;
          const reason = (error as { code?: string }).code ?? (error as Error).message.slice(0, 80);
          refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
    await Promise.all(inFlight);
    const offered = total / ((Date.now() - started) / 1000);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const stats = (await (await fetch(`http://127.0.0.1:${receiver.port}/stats`)).json()) as { unique: number };
      if (stats.unique >= committed.size || Date.now() > deadline) break;
      await sleep(200);
    }
    const arrivals = (await (await fetch(`http://127.0.0.1:${receiver.port}/arrivals`)).json()) as Record<string, number>;
    const events = await db.query<{ id: string; subject_id: string }>(sql`
      select id, subject_id from events where merchant_id = ${merchant.id} and type = 'refund.created'`);
    const lags = events.flatMap(({ id, subject_id }) => {
      const at = committed.get(subject_id);
      return at === undefined || arrivals[id] === undefined ? [] : [arrivals[id] - at];
    });
    const p50 = percentile(lags, 50);
    const p99 = percentile(lags, 99);
    report.text("");
    report.text(
      `Refund → first webhook attempt: ${total.toLocaleString("en-US")} refunds (pending, one \`refund.created\` each) at ${LAG_RATE}/s ` +
        `(offered ${round(offered)}/s) for ${config.lagSeconds} s, each of its own seeded payment, recorded by the service \`POST /refund\` calls ` +
        `(\`createRefund\` with an amount and \`currency\`, as in the first part: the amount taken and the refund inserted in one statement, then its event, in one transaction) in the bench process on ${LAG_CONNECTIONS} ` +
        "connections, without HTTP (the case measures the outbox's path; HTTP's cost is the first part's); `npm run worker` with its " +
        "defaults delivers to a local receiver; lag = the event's first arrival there − the moment the refund's transaction committed.",
    );
    report.table(
      ["refunds", "committed", "arrived", "lag p50 ms", "lag p99 ms", "lag max ms"],
      [[total, committed.size, lags.length, round(p50), round(p99), round(Math.max(...lags))]],
    );
    const missing = committed.size - lags.length;
    if (refused > 0) report.text(`Refused: ${[...refusals].map(([reason, n]) => `${n} × ${reason}`).join(", ")}.`);
    report.target(
      `13. refund → first webhook attempt p99 < 1 s at ${LAG_RATE} refunds/s (offered ${round(offered)}/s)`,
      `${round(p99)} ms (p50 ${round(p50)} ms)${refused ? `; ${refused} refunds refused` : ""}${missing ? `; ${missing} not delivered within 60 s` : ""}`,
      p99 < 1000 && refused === 0 && missing === 0,
    );
    report.data.refundsLag = { total, committed: committed.size, arrived: lags.length, refused, offered, p50, p99, max: Math.max(...lags) };
  } finally {
    await worker?.stop();
    await receiver.stop();
    await database?.close();
  }
}
