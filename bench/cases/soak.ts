import { readFileSync } from "node:fs";
import { config } from "../lib/config";
import { baseUrl, type BenchContext } from "../lib/context";
import { runLoad } from "../lib/load";
import { sampleActivity, type ActivitySecond } from "../lib/activity";
import { round } from "../lib/stats";

/**
 * Case 3: saturation for a minute. A mix of GET /payment/{id} and POST /payment/confirm (each connection
 * alternates) at 128 connections; throughput of the last 10 s against the first 10 s, and no 5xx or timeouts.
 */
export async function caseSoak(ctx: BenchContext) {
  const { report } = ctx;
  report.section(`3. Stable under saturation: ${config.soakSeconds} s at ${config.soakConnections} connections`);
  const headers = { authorization: `Bearer ${ctx.merchant.apiKey}` };
  const getPath = `/api/v1/payment/${ctx.paymentId}`;
  const postPath = "/api/v1/payment/confirm";
  report.text("Mix: GET /api/v1/payment/{id} and POST /api/v1/payment/confirm, alternating on each connection.");
  let counter = 0;
  const prefix = `soak-${Date.now().toString(36)}`;
  const mix = (duration: number) => ({
    url: baseUrl(ctx.next),
    connections: config.soakConnections,
    duration,
    perSecond: true,
    requests: [
      { method: "GET", path: getPath, headers },
      {
        method: "POST",
        path: postPath,
        setupRequest: (request: object) => {
          const n = counter++;
          return {
            ...request,
            headers: { ...headers, "content-type": "application/json", "idempotency-key": `${prefix}-${n}` },
            body: JSON.stringify({ externalId: `${prefix}-${n}`, amount: "19.99", currency: "USD", status: "confirmed" }),
          };
        },
      },
    ],
  });
  // Warm-up at the same load, not counted: without it the first 10 s hold the JIT's and the pools' start
  // (seen: 244 → 513 req/s over the first five seconds), which flatters last / first.
  if (config.soakWarmupSeconds > 0) await runLoad(mix(config.soakWarmupSeconds), { servers: {} });
  const rssBefore = rssMb(ctx.next.pid);
  const background = sampleActivity(ctx.db, ctx.next.pid);
  const result = await runLoad(mix(config.soakSeconds), ctx.targets(ctx.next));
  const activity = await background.stop();
  const seconds = result.perSecond ?? [];
  // Whole seconds only: the last bucket is partial.
  const whole = seconds.slice(0, Math.max(0, Math.floor(config.soakSeconds)));
  const window = Math.min(10, Math.floor(whole.length / 2));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const first = sum(whole.slice(0, window)) / window;
  const last = sum(whole.slice(-window)) / window;
  const stable = last / first;
  const rssAfter = rssMb(ctx.next.pid);
  const windows = Array.from({ length: Math.floor(whole.length / 10) }, (_, i) => round(sum(whole.slice(i * 10, i * 10 + 10)) / 10));
  // Per window: the server's CPU per request (did a request get costlier?) and the machine's busy share (did
  // the machine have CPU to spare?). The samples run beside autocannon's buckets, so a window may be off by a second.
  const perWindow = (value: (second: ActivitySecond) => number) =>
    windows.map((_, i) => sum(activity.slice(i * 10, i * 10 + 10).map(value)));
  const serverUsPerRequest = perWindow((second) => second.serverCpu).map((cpu, i) => round((cpu * 1e6) / (windows[i]! * 10)));
  const machineBusyShare = perWindow((second) => second.machineBusy).map((busy) => round((busy / 10 / 2) * 100));
  const trend = trendPerMinute(whole);
  report.table(
    ["req/s overall", `first ${window} s`, `last ${window} s`, "last / first", "p50 ms", "p99 ms", "5xx", "errors", "timeouts", "non-2xx", "CPU µs/req server", "CPU µs/req postgres"],
    [[
      round(result.rps),
      round(first),
      round(last),
      round(stable, 2),
      result.p50,
      result.p99,
      result.status5xx,
      result.errors,
      result.timeouts,
      result.non2xx,
      round(result.cpu.server?.usPerRequest ?? NaN),
      round(result.cpu.postgres?.usPerRequest ?? NaN),
    ]],
  );
  report.text(`Per second: ${whole.join(" ")}`);
  report.text(
    `Each 10 s: ${windows.join(", ")} req/s. Trend (least-squares line through every second): ` +
      `${trend >= 0 ? "+" : ""}${round(trend * 100, 1)} % a minute. Server RSS ${rssBefore} → ${rssAfter} MB. ` +
      `Warm-up before it: ${config.soakWarmupSeconds} s of the same mix.`,
  );
  report.text(
    `Each 10 s, server CPU µs per request: ${serverUsPerRequest.join(", ")}; machine busy (2 cores = 100 %): ` +
      `${machineBusyShare.map((share) => `${share} %`).join(", ")}.`,
  );
  // The throughput beside what PostgreSQL did in the background: a checkpoint makes the writes after it carry
  // full-page images (more WAL per confirm), and an autovacuum takes CPU from the two cores everything shares.
  const marks = (pick: (second: ActivitySecond) => boolean) =>
    activity.flatMap((second, i) => (pick(second) && i < whole.length ? [i + 1] : [])).join(", ") || "none";
  report.text(
    `PostgreSQL meanwhile: checkpoints begun in second ${marks((second) => second.checkpoints > 0)}; autovacuum ` +
      `running in second ${marks((second) => second.autovacuums > 0)}; WAL MB per second: ` +
      activity.slice(0, whole.length).map((second) => round(second.walMb, 1)).join(" "),
  );
  const met = stable >= 0.9 && result.status5xx === 0 && result.timeouts === 0 && result.errors === 0;
  report.target(
    `3. ${config.soakSeconds} s at ${config.soakConnections} connections: last ${window} s ≥ 0.9 × first ${window} s, no 5xx, no timeouts`,
    `${round(stable, 2)}; 5xx ${result.status5xx}, timeouts ${result.timeouts}, errors ${result.errors}`,
    met,
  );
  report.data.soak = { ...result, first, last, stable, activity, windows, trend, rssBefore, rssAfter, serverUsPerRequest, machineBusyShare };
}

/** The slope of the least-squares line through the per-second throughput, as a fraction of the mean per minute. */
function trendPerMinute(values: number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return meanY === 0 ? 0 : ((num / den) * 60) / meanY;
}

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return round(kb / 1024);
  } catch {
    return NaN;
  }
}
