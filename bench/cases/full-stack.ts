import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { compare, ratio, type Variant } from "../lib/compare";
import { config } from "../lib/config";
import { fmtSpread } from "../lib/stats";
import { baseUrl, routeExists, type BenchContext, type Merchant } from "../lib/context";
import type { LoadSpec } from "../lib/load";
import type { Server } from "../lib/proc";
import { ROOT } from "../lib/env";
import { floorSpecs } from "./floor";

/** bench/tools/pipeline.ts for get, list and confirm, each in its own process on its own database. */
async function pipelineWithoutNext() {
  const rows: { kind: string; rps: number; cpuUsPerRequest: number }[] = [];
  for (const kind of ["get", "list", "confirm"]) {
    const { stdout } = await promisify(execFile)("node", ["--import", "tsx", "bench/tools/pipeline.ts", kind], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SECONDS: String(config.duration), BENCH_LOG_LEVEL: config.logLevel },
    });
    rows.push(JSON.parse(stdout.trim().split("\n").at(-1)!) as { kind: string; rps: number; cpuUsPerRequest: number });
  }
  return rows;
}

/** The full-stack requests of the REST API (auth, validation, idempotency, logging, the service layer). */
export function apiSpecs(server: Server, merchant: Merchant, paymentId: string) {
  const auth = { authorization: `Bearer ${merchant.apiKey}` };
  let counter = 0;
  const prefix = `api-${server.name}-${Date.now().toString(36)}`;
  return {
    get: (): LoadSpec => ({
      url: `${baseUrl(server)}/api/v1/payment/${paymentId}`,
      connections: config.connections,
      duration: config.duration,
      headers: auth,
    }),
    list: (): LoadSpec => ({
      url: `${baseUrl(server)}/api/v1/payment?limit=20`,
      connections: config.connections,
      duration: config.duration,
      headers: auth,
    }),
    confirm: (): LoadSpec => ({
      url: `${baseUrl(server)}/api/v1/payment/confirm`,
      connections: config.connections,
      duration: config.duration,
      method: "POST",
      setupRequest: (request) => {
        const n = counter++;
        return {
          ...request,
          headers: { ...auth, "content-type": "application/json", "idempotency-key": `${prefix}-${n}` },
          body: JSON.stringify({ externalId: `${prefix}-${n}`, amount: "19.99", currency: "USD", status: "confirmed" }),
        };
      },
    }),
  };
}

/** Case 2: our own overhead over the floor, each in its own Next.js server of the same Next.js version. */
export async function caseFullStack(ctx: BenchContext) {
  const { report } = ctx;
  report.section("2. Full stack vs the floor (the app and the floor app, same Next.js)");
  const present = await Promise.all([
    routeExists(ctx.next, "GET", `/api/v1/payment/${ctx.paymentId}`, ctx.merchant.apiKey),
    routeExists(ctx.next, "GET", "/api/v1/payment", ctx.merchant.apiKey),
    routeExists(ctx.next, "POST", "/api/v1/payment/confirm", ctx.merchant.apiKey),
  ]);
  if (!present.every(Boolean)) {
    report.text("Skipped: the payment routes are not in this build yet.");
    return;
  }
  report.text(
    `${config.connections} connections, ${config.duration} s per run, ${config.reps} interleaved rounds. ` +
      "Confirm sends a new externalId and Idempotency-Key each request; list is the first page of 20.",
  );
  report.text("");
  const floor = floorSpecs(ctx, ctx.floor);
  const api = apiSpecs(ctx.next, ctx.merchant, ctx.paymentId);
  const targets = ctx.targets(ctx.next);
  const floorTargets = ctx.targets(ctx.floor);
  const groups = ["server", "postgres", "autocannon"];

  const gets: Variant[] = [
    { name: "floor GET one payment", spec: floor.get, targets: floorTargets },
    { name: "GET /payment/{id}", spec: api.get, targets },
    { name: "GET /payment (20 rows)", spec: api.list, targets },
  ];
  const [floorGet, get, list] = await compare("full-stack GET", gets);
  report.variants([floorGet!, get!, list!], groups);

  const posts: Variant[] = [
    { name: "floor POST payment+event+delivery", spec: floor.post, targets: floorTargets },
    { name: "POST /payment/confirm", spec: api.confirm, targets },
  ];
  const [floorPost, confirm] = await compare("full-stack POST", posts);
  report.variants([floorPost!, confirm!], groups);

  const confirmRatio = ratio(confirm!, floorPost!);
  const getRatio = ratio(get!, floorGet!);
  const listRatio = ratio(list!, floorGet!);
  report.target("2. POST /payment/confirm ≥ 0.7 × floor POST", fmtSpread(confirmRatio, 2), confirmRatio.median >= 0.7);
  report.target("2. GET /payment/{id} ≥ 0.8 × floor GET", fmtSpread(getRatio, 2), getRatio.median >= 0.8);
  report.target("2. GET /payment (20 rows) ≥ 0.7 × floor GET", fmtSpread(listRatio, 2), listRatio.median >= 0.7);
  const pipeline = await pipelineWithoutNext();
  report.text("");
  report.text(
    "Our pipeline without Next.js (`bench/tools/pipeline.ts`: the same route declarations through `dispatch()`, " +
      "32 requests in flight in one process, no HTTP): what the REST layer itself costs.",
  );
  report.table(
    ["request", "req/s", "CPU µs/req (pipeline + drizzle + node-postgres)"],
    pipeline.map((row) => [row.kind, row.rps, row.cpuUsPerRequest]),
  );
  report.data.fullStack = { floorGet, get, list, floorPost, confirm, ratios: { confirmRatio, getRatio, listRatio }, pipeline };
}
