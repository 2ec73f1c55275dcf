import { config } from "../lib/config";
import { baseUrl, routeExists, type BenchContext } from "../lib/context";
import { runLoad } from "../lib/load";
import { round } from "../lib/stats";

/**
 * Case 3: saturation for a minute. A mix of GET /payment/{id} and POST /payment/confirm (each connection
 * alternates) at 128 connections; throughput of the last 10 s against the first 10 s, and no 5xx or timeouts.
 */
export async function caseSoak(ctx: BenchContext) {
  const { report } = ctx;
  report.section(`3. Stable under saturation: ${config.soakSeconds} s at ${config.soakConnections} connections`);
  const full = await routeExists(ctx.next, "POST", "/api/v1/payment/confirm", ctx.merchant.apiKey);
  const auth = { authorization: `Bearer ${ctx.merchant.apiKey}` };
  const headers = full ? auth : { "x-bench-merchant": ctx.merchant.id };
  const getPath = full ? `/api/v1/payment/${ctx.paymentId}` : `/api/bench/payment/${ctx.paymentId}`;
  const postPath = full ? "/api/v1/payment/confirm" : "/api/bench/payment";
  report.text(
    full
      ? "Mix: GET /api/v1/payment/{id} and POST /api/v1/payment/confirm, alternating on each connection."
      : "The payment routes are not in this build yet: the floor's GET and POST instead.",
  );
  let counter = 0;
  const prefix = `soak-${Date.now().toString(36)}`;
  const result = await runLoad(
    {
      url: baseUrl(ctx.next),
      connections: config.soakConnections,
      duration: config.soakSeconds,
      perSecond: true,
      requests: [
        { method: "GET", path: getPath, headers },
        {
          method: "POST",
          path: postPath,
          setupRequest: (request) => {
            const n = counter++;
            return {
              ...request,
              headers: { ...headers, "content-type": "application/json", "idempotency-key": `${prefix}-${n}` },
              body: JSON.stringify({ externalId: `${prefix}-${n}`, amount: "19.99", currency: "USD", status: "confirmed" }),
            };
          },
        },
      ],
    },
    ctx.targets(ctx.next),
  );
  const seconds = result.perSecond ?? [];
  // Whole seconds only: the last bucket is partial.
  const whole = seconds.slice(0, Math.max(0, Math.floor(config.soakSeconds)));
  const window = Math.min(10, Math.floor(whole.length / 2));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const first = sum(whole.slice(0, window)) / window;
  const last = sum(whole.slice(-window)) / window;
  const stable = last / first;
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
  const met = stable >= 0.9 && result.status5xx === 0 && result.timeouts === 0 && result.errors === 0;
  report.target(
    `3. ${config.soakSeconds} s at ${config.soakConnections} connections: last ${window} s ≥ 0.9 × first ${window} s, no 5xx, no timeouts`,
    `${round(stable, 2)}; 5xx ${result.status5xx}, timeouts ${result.timeouts}, errors ${result.errors}`,
    met,
  );
  report.data.soak = { ...result, first, last, stable, full };
}
