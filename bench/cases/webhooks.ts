import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { newId } from "../../src/lib/ids";
import { WAKE_CHANNEL } from "../../src/server/webhooks/wake";
import { config, AUTH_SECRET } from "../lib/config";
import { defaultEndpoint } from "../lib/default-endpoint";
import { registerMerchant, type BenchContext } from "../lib/context";
import { ROOT } from "../lib/env";
import { machineCpuSeconds, mainThreadCpuSeconds, sleep, startServer, treeCpuSeconds, type Server } from "../lib/proc";
import { median, percentile, ratioSpread, round, spread, fmtSpread } from "../lib/stats";

const run = promisify(execFile);

/**
 * Case 5: webhook dispatch by a separate `npm run worker` process to a local receiver, against a bare loop
 * that only POSTs the same bodies there; then commit → first-attempt lag at a steady event rate.
 */
export async function caseWebhooks(ctx: BenchContext) {
  const { report, db } = ctx;
  report.section("5. Webhook dispatch: separate worker process → local receiver, vs a bare POST loop");
  if (!existsSync(path.join(ROOT, "scripts", "worker.ts"))) {
    report.text("Skipped: `npm run worker` (scripts/worker.ts) is not in this tree yet.");
    return;
  }
  const receiver = await startServer({
    name: "receiver",
    command: "node",
    args: ["--import", "tsx", "bench/receiver.ts"],
    port: ctx.nextPort(),
    logFile: path.join(ctx.logDir, "receiver.log"),
    env: {},
  });
  const hookUrl = `http://127.0.0.1:${receiver.port}/hook`;
  const merchant = await registerMerchant(ctx.next, "webhooks", hookUrl);
  // Earlier cases left deliveries pending to a closed port: hold them back, or the worker would spend the
  // measurement failing them.
  await db.query(sql`update webhook_deliveries set next_attempt_at = 'infinity' where status = 'pending' and merchant_id <> ${merchant.id}`);
  const poll = process.env.BENCH_WORKER_POLL ?? "100ms";
  let worker: Server | undefined;
  try {
    worker = await startServer({
      name: "worker",
      command: "node",
      args: ["--import", "tsx", "scripts/worker.ts", "--concurrency", String(config.webhookConcurrency), "--poll", poll],
      port: receiver.port, // readiness: the worker has no port; wait on the receiver, then on the log
      logFile: path.join(ctx.logDir, "worker.log"),
      env: {
        DATABASE_URL: db.url,
        AUTH_SECRET,
        NODE_ENV: "production",
        LOG_LEVEL: config.logLevel,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      },
    });
    await sleep(3000); // tsx start-up and the worker's migration check
    const n = config.webhookDeliveries;
    report.text(
      `${n.toLocaleString("en-US")} due deliveries per round; worker: \`npm run worker -- --concurrency ${config.webhookConcurrency} --poll ${poll}\`; ` +
        `bare loop: undici, ${config.webhookConcurrency} in flight, no signing or recording. ${config.reps} interleaved rounds after one of each to warm up.`,
    );
    report.text("");
    const workerRates: number[] = [];
    const bareRates: number[] = [];
    const workerCpu: number[] = [];
    const pgCpu: number[] = [];
    const bareCpu: number[] = [];
    // Is a variant held back by the machine's two cores or by waiting? How busy the whole machine was, and
    // what the receiver (which both variants share) cost per request.
    const workerBusy: number[] = [];
    const bareBusy: number[] = [];
    const workerReceiverCpu: number[] = [];
    const workerMainBusy: number[] = [];
    const bareMainBusy: number[] = [];
    const bareReceiverCpu: number[] = [];
    const busyFraction = (before: { busy: number; total: number }) => {
      const after = machineCpuSeconds();
      return (after.busy - before.busy) / (after.total - before.total);
    };
    // At the receiver: first to last arrival, without the release statement and the polling for completion
    // that the worker's clock includes.
    const workerArrivalRates: number[] = [];
    const bareArrivalRates: number[] = [];
    const arrivalRate = async () => {
      const at = Object.values(await arrivalsAt(receiver));
      return (at.length - 1) / ((Math.max(...at) - Math.min(...at)) / 1000);
    };
    // Round 0 warms both up (the worker's first claims and sends run cold: its first round was always the
    // slowest by a third) and is not counted.
    for (let round_ = -1; round_ < config.reps; round_++) {
      const measured = round_ >= 0;
      const batch = `whd_b${round_ + 1}${Date.now().toString(36)}`.slice(0, 14);
      await seedDeliveries(ctx, merchant.id, hookUrl, batch, n);
      // Worker: release the batch, wait until every delivery is recorded as delivered.
      await fetch(`http://127.0.0.1:${receiver.port}/reset`, { method: "POST" });
      const pgPids = await db.query<{ pid: number }>(sql`select pid from pg_stat_activity where datname = ${db.name}`);
      const pgBefore = pgPids.reduce((sum, row) => sum + treeCpuSeconds(row.pid), 0);
      const cpuBefore = treeCpuSeconds(worker.pid);
      const receiverBefore = treeCpuSeconds(receiver.pid);
      const machineBefore = machineCpuSeconds();
      const mainBefore = mainThreadCpuSeconds(worker.pid);
      const started = performance.now();
      await db.query(sql`update webhook_deliveries set next_attempt_at = now() where id like ${batch + "%"}`);
      // Poll for the rows still to do (pending or delivering: a short range of the merchant/status index)
      // rather than count the delivered ones (a scan of the whole, growing table every 50 ms, which cost
      // the database — and so the worker beside it on this machine — more with every round).
      for (;;) {
        const [row] = await db.query<{ left: boolean }>(sql`
          select exists (select 1 from webhook_deliveries
            where merchant_id = ${merchant.id} and status in ('pending', 'delivering') and id like ${batch + "%"}) as left`);
        if (!row!.left) break;
        if (performance.now() - started > 300_000) throw new Error(`worker left deliveries of ${n} undelivered after 5 min`);
        await sleep(50);
      }
      const seconds = (performance.now() - started) / 1000;
      const busy = busyFraction(machineBefore);
      const mainBusy = (mainThreadCpuSeconds(worker.pid) - mainBefore) / seconds;
      const receiverCpu = ((treeCpuSeconds(receiver.pid) - receiverBefore) * 1e6) / n;
      const senderCpu = ((treeCpuSeconds(worker.pid) - cpuBefore) * 1e6) / n;
      const pgPidsAfter = await db.query<{ pid: number }>(sql`select pid from pg_stat_activity where datname = ${db.name}`);
      const postgresCpu = ((pgPidsAfter.reduce((sum, row) => sum + treeCpuSeconds(row.pid), 0) - pgBefore) * 1e6) / n;
      const [delivered] = await db.query<{ done: number }>(sql`
        select count(*)::int as done from webhook_deliveries where id like ${batch + "%"} and status = 'delivered'`);
      if (delivered!.done !== n) throw new Error(`worker delivered ${delivered!.done}/${n}: some deliveries failed`);
      console.log(`  [webhooks] worker ${measured ? `#${round_ + 1}` : "warm-up"}: ${Math.round(n / seconds)} deliveries/s`);
      if (measured) {
        workerBusy.push(busy);
        workerMainBusy.push(mainBusy);
        workerReceiverCpu.push(receiverCpu);
        workerRates.push(n / seconds);
        workerCpu.push(senderCpu);
        pgCpu.push(postgresCpu);
        workerArrivalRates.push(await arrivalRate());
      }

      // Bare loop over the same bodies.
      await fetch(`http://127.0.0.1:${receiver.port}/reset`, { method: "POST" });
      // The sender's start-up (tsx, reading the bodies) is in these two, so they run a little high.
      const bareReceiverBefore = treeCpuSeconds(receiver.pid);
      const bareMachineBefore = machineCpuSeconds();
      const { stdout } = await run("node", ["--import", "tsx", "bench/bare-sender.ts"], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url, TARGET_URL: hookUrl, CONCURRENCY: String(config.webhookConcurrency), BATCH: batch },
      });
      const bare = JSON.parse(stdout.trim().split("\n").at(-1)!) as { sent: number; ms: number; cpuSeconds: number; mainThreadBusy: number };
      console.log(`  [webhooks] bare loop ${measured ? `#${round_ + 1}` : "warm-up"}: ${Math.round(bare.sent / (bare.ms / 1000))} POSTs/s`);
      if (!measured) continue;
      bareBusy.push(busyFraction(bareMachineBefore));
      bareMainBusy.push(bare.mainThreadBusy);
      bareReceiverCpu.push(((treeCpuSeconds(receiver.pid) - bareReceiverBefore) * 1e6) / bare.sent);
      bareRates.push(bare.sent / (bare.ms / 1000));
      bareCpu.push((bare.cpuSeconds * 1e6) / bare.sent);
      bareArrivalRates.push(await arrivalRate());
    }
    report.table(
      ["", "per second median (min–max)", "CPU µs per delivery (sender)", "CPU µs per delivery (postgres)", "CPU µs per delivery (receiver)", "sender's main thread busy", "machine busy (2 cores = 100 %)"],
      [
        ["worker: signed deliveries", fmtSpread(spread(workerRates)), round(median(workerCpu)), round(median(pgCpu)), round(median(workerReceiverCpu)), `${round(median(workerMainBusy) * 100)} %`, `${round(median(workerBusy) * 100)} %`],
        ["bare POST loop", fmtSpread(spread(bareRates)), round(median(bareCpu)), "–", round(median(bareReceiverCpu)), `${round(median(bareMainBusy) * 100)} %`, `${round(median(bareBusy) * 100)} %`],
      ],
    );
    const ratio = ratioSpread(workerRates, bareRates);
    report.target("5. worker ≥ 1,000 signed deliveries/s", fmtSpread(spread(workerRates)), median(workerRates) >= 1000);
    report.target("5. worker ≥ 0.5 × bare POST loop", fmtSpread(ratio, 2), ratio.median >= 0.5);
    const arrivalRatio = ratioSpread(workerArrivalRates, bareArrivalRates);
    report.text(
      `At the receiver, first to last arrival (the worker's figure above also holds the statement that releases the ` +
        `round's deliveries and up to 50 ms of polling for the last record): worker ${fmtSpread(spread(workerArrivalRates))}/s, ` +
        `bare loop ${fmtSpread(spread(bareArrivalRates))}/s, ratio ${fmtSpread(arrivalRatio, 2)}.`,
    );
    // Twice: on the table as the rounds above left it (30,000 deliveries' dead index entries, which every claim
    // steps over until VACUUM removes them), then after the VACUUM that autovacuum would run (BENCHMARKS.md).
    const lagUnvacuumed = await measureLag(ctx, merchant.id, hookUrl, receiver, "right after the rounds above, before any vacuum");
    await db.query(sql`vacuum analyze webhook_deliveries`);
    const lag = await measureLag(ctx, merchant.id, hookUrl, receiver, "after VACUUM ANALYZE webhook_deliveries");
    report.data.webhooks = { workerRates, bareRates, workerArrivalRates, bareArrivalRates, arrivalRatio, workerCpu, pgCpu, bareCpu, workerBusy, bareBusy, workerMainBusy, bareMainBusy, workerReceiverCpu, bareReceiverCpu, ratio, lag, lagUnvacuumed, poll };
  } finally {
    await worker?.stop();
    await receiver.stop();
  }
}

/** When each webhook-id first reached the receiver since its last reset (epoch ms). */
async function arrivalsAt(receiver: Server): Promise<Record<string, number>> {
  return (await (await fetch(`http://127.0.0.1:${receiver.port}/arrivals`)).json()) as Record<string, number>;
}

/** N events with their pending deliveries in one statement, held back (next_attempt_at = infinity) until released. */
async function seedDeliveries(ctx: BenchContext, merchantId: string, url: string, batch: string, n: number) {
  const tag = batch.slice(4);
  await ctx.db.query(sql`
    with ev as (
      insert into events (id, merchant_id, type, data, subject_id, created_at)
      select 'evt_' || ${tag} || lpad(i::text, ${26 - tag.length}, '0'), ${merchantId}, 'payment.confirmed',
             jsonb_build_object('id', 'pay_' || lpad(i::text, 26, '0'), 'externalId', 'ext-' || i, 'amount', '19.99',
                                'currency', 'USD', 'status', 'confirmed'),
             null, now()
      from generate_series(1, ${n}::int) as i
      returning id)
    insert into webhook_deliveries (id, merchant_id, event_id, event_created_at, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
    select 'whd_' || substr(id, 5), ${merchantId}, id, now(), ${defaultEndpoint(merchantId)}, ${url}, 'pending', 'infinity', now(), now() from ev`);
}

/**
 * Commit → first attempt: events committed one transaction each at `lagRate`/s for `lagSeconds`; the lag is
 * the receiver's arrival time minus the moment the commit returned.
 */
async function measureLag(ctx: BenchContext, merchantId: string, url: string, receiver: Server, state: string) {
  const { report, db } = ctx;
  await fetch(`http://127.0.0.1:${receiver.port}/reset`, { method: "POST" });
  const committed = new Map<string, number>();
  const total = config.lagRate * config.lagSeconds;
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < total; i++) {
    // Pace: event i is due at started + i / rate.
    const due = started + (i * 1000) / config.lagRate;
    const wait = due - Date.now();
    if (wait > 1) await sleep(wait);
    const eventId = newId("event");
    const task = db.drizzle
      .transaction(async (tx) => {
        const now = new Date();
        await tx.execute(sql`insert into events (id, merchant_id, type, data, created_at)
                 values (${eventId}, ${merchantId}, 'payment.confirmed', ${JSON.stringify({ n: i })}, ${now})`);
        await tx.execute(sql`insert into webhook_deliveries (id, merchant_id, event_id, event_created_at, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
                 values (${newId("delivery")}, ${merchantId}, ${eventId}, ${now}, ${defaultEndpoint(merchantId)}, ${url}, 'pending', ${now}, ${now}, ${now})`);
        // What emitEvent does with every delivery: wake the workers at commit (webhooks/wake.ts).
        await tx.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`);
      })
      .then(() => {
        committed.set(eventId, Date.now());
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  const offered = total / ((Date.now() - started) / 1000);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const stats = (await (await fetch(`http://127.0.0.1:${receiver.port}/stats`)).json()) as { unique: number };
    if (stats.unique >= total || Date.now() > deadline) break;
    await sleep(200);
  }
  const arrivals = await arrivalsAt(receiver);
  const lags = [...committed].flatMap(([id, at]) => (arrivals[id] === undefined ? [] : [arrivals[id]! - at]));
  const missing = total - lags.length;
  const p50 = percentile(lags, 50);
  const p99 = percentile(lags, 99);
  report.text("");
  report.text(`Commit → first attempt at ${config.lagRate} events/s (offered ${round(offered)}/s) for ${config.lagSeconds} s, one transaction per event, ${state}:`);
  report.table(["events", "arrived", "lag p50 ms", "lag p99 ms", "lag max ms"], [[total, lags.length, round(p50), round(p99), round(Math.max(...lags))]]);
  const at = `at ${config.lagRate}/s (offered ${round(offered)}/s), ${state}`;
  // Woken at commit (webhooks/wake.ts) rather than at the next poll.
  report.target(`5. commit → first attempt p50 < 10 ms ${at}`, `${round(p50)} ms`, p50 < 10);
  report.target(`5. commit → first attempt p99 < 50 ms ${at}`, `${round(p99)} ms${missing ? `; ${missing} not delivered within 60 s` : ""}`, p99 < 50 && missing === 0);
  return { total, arrived: lags.length, p50, p99, max: Math.max(...lags), offered };
}
