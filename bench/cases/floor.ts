import type { Variant } from "../lib/compare";
import { compare, ratio } from "../lib/compare";
import { config } from "../lib/config";
import { TUNED } from "../lib/env";
import { fmtSpread } from "../lib/stats";
import { baseUrl, type BenchContext } from "../lib/context";
import type { LoadSpec } from "../lib/load";
import type { Server } from "../lib/proc";

/** The floor's three requests against one server (bare node:http or the floor app's route handlers). */
export function floorSpecs(ctx: BenchContext, server: Server) {
  const headers = { "x-bench-merchant": ctx.merchant.id };
  let counter = 0;
  const prefix = `floor-${server.name}-${Date.now().toString(36)}`;
  return {
    constant: (): LoadSpec => ({ url: `${baseUrl(server)}/api/bench/constant`, connections: config.connections, duration: config.duration }),
    get: (): LoadSpec => ({
      url: `${baseUrl(server)}/api/bench/payment/${ctx.paymentId}`,
      connections: config.connections,
      duration: config.duration,
      headers,
    }),
    post: (): LoadSpec => ({
      url: `${baseUrl(server)}/api/bench/payment`,
      connections: config.connections,
      duration: config.duration,
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ externalId: `${prefix}-${counter++}`, amount: "19.99", currency: "USD" }),
      }),
    }),
  };
}

/** Case 1: the framework floor (Next.js route handler + the bare SQL) against bare node:http + the same SQL. */
export async function caseFloor(ctx: BenchContext) {
  const { report } = ctx;
  report.section("1. Framework floor: Next.js route handler vs bare node:http, same SQL");
  report.text(
    `${config.connections} connections, ${config.duration} s per run, ${config.reps} interleaved rounds (bare, next, tuned, bare, …). ` +
      `"next": the build as configured in next.config.ts; "tuned": the same build with ${JSON.stringify(TUNED.nextConfig)} and NODE_OPTIONS=${TUNED.nodeOptions}.`,
  );
  report.text("");
  const bare = floorSpecs(ctx, ctx.bare);
  const next = floorSpecs(ctx, ctx.floor);
  const tuned = floorSpecs(ctx, ctx.floorTuned);
  const results: Record<string, unknown> = {};
  for (const kind of ["constant", "get", "post"] as const) {
    const variants: Variant[] = [
      { name: `bare ${kind}`, spec: bare[kind], targets: ctx.targets(ctx.bare) },
      { name: `next floor ${kind}`, spec: next[kind], targets: ctx.targets(ctx.floor) },
      { name: `next floor ${kind}, tuned`, spec: tuned[kind], targets: ctx.targets(ctx.floorTuned) },
    ];
    const [bareSummary, nextSummary, tunedSummary] = await compare(`floor ${kind}`, variants);
    report.variants([bareSummary!, nextSummary!, tunedSummary!], ["server", "postgres", "autocannon"]);
    const value = ratio(nextSummary!, bareSummary!);
    const tunedValue = ratio(tunedSummary!, bareSummary!);
    const gain = ratio(tunedSummary!, nextSummary!);
    report.ratio(`${kind}: next floor / bare`, value);
    report.ratio(`${kind}: tuned floor / bare`, tunedValue);
    if (kind === "constant") {
      report.target("1. floor constant JSON doubled by configuration (tuned / next)", fmtSpread(gain, 2), gain.median >= 2);
    } else {
      report.ratio(`${kind}: tuned / next (after / before)`, gain);
    }
    report.text("");
    results[kind] = { bare: bareSummary, next: nextSummary, tuned: tunedSummary, ratio: value, tunedRatio: tunedValue, gain };
  }
  report.data.floor = results;
  return results;
}
