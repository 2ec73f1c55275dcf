/**
 * Our REST pipeline without Next.js: the real route declarations driven through `dispatch()` (as the
 * integration tests do) on a fresh database, `CONCURRENCY` requests in flight for `BENCH_SECONDS` (10). Prints req/s and
 * CPU per request of this process (the pipeline + drizzle + node-postgres). Run under a profiler for
 * readable frames (the production build minifies them):
 *
 *   npx node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/tools/pipeline.ts confirm|confirm-no-key|get|list
 */
import { sql } from "drizzle-orm";
import pino from "pino";
import { parseEnv } from "../../src/env";
import { openServerDatabase } from "../../src/server/db/open";
import { dispatch } from "../../src/server/http/dispatch";
import { routes } from "../../src/server/http/routes";
import { createRuntime } from "../../src/server/runtime";
import { AUTH_SECRET } from "../lib/config";
import { seedPayments } from "../lib/context";
import { createDatabase } from "../lib/env";

const kind = process.argv[2] ?? "confirm";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.CONCURRENCY ?? 32);

const database = await createDatabase();
try {
  const env = parseEnv({
    NODE_ENV: "production",
    AUTH_SECRET,
    DATABASE_URL: database.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    WEBHOOK_WORKER: "off",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    RATE_LIMIT_PER_KEY: "1000000",
    RATE_LIMIT_PER_IP: "1000000",
    // BENCH_METRICS=1: every request observed, as with METRICS_TOKEN in production (BENCHMARKS.md, case 11).
    ...(process.env.BENCH_METRICS === "1" ? { METRICS_TOKEN: "bench-metrics-token-0123456789abcdefghij" } : {}),
  });
  const handle = await openServerDatabase(database.url);
  const runtime = createRuntime({ env, database: handle, log: pino({ level: env.LOG_LEVEL }, pino.destination("/dev/null")) });
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    dispatch(
      runtime,
      routes,
      new Request(`http://127.0.0.1/api/v1${path}`, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const registered = await call("POST", "/merchant/register", {}, {
    name: "Pipeline",
    email: `pipeline-${Date.now()}@example.com`,
    password: "bench-password-123456",
    webhookUrl: "http://127.0.0.1:9/bench",
  });
  const { merchant, apiKey } = (await registered.json()) as { merchant: { id: string }; apiKey: string };
  await seedPayments(database, merchant.id, 10_000, "a");
  await database.query(sql`analyze`); // as bench/run.ts: the planner needs statistics
  const [newest] = await database.query<{ id: string }>(sql`select id from payments where merchant_id = ${merchant.id} order by created_at desc limit 1`);
  const auth = { authorization: `Bearer ${apiKey}` };
  let n = 0;
  const once = async () => {
    const i = n++;
    const response =
      kind === "get"
        ? await call("GET", `/payment/${newest!.id}`, auth)
        : kind === "list"
          ? await call("GET", "/payment?limit=20", auth)
          : await call("POST", "/payment/confirm", kind === "confirm-no-key" ? auth : { ...auth, "idempotency-key": `p-${i}` }, {
              externalId: `pipeline-${i}`,
              amount: "19.99",
              currency: "USD",
              status: "confirmed",
            });
    if (response.status >= 300) throw new Error(`${kind} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  // Warm-up, then the measured window.
  const until = (deadline: number) => Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) await once();
  }));
  await until(Date.now() + 2000);
  const before = process.cpuUsage();
  const start = n;
  const started = performance.now();
  await until(Date.now() + seconds * 1000);
  const cpu = process.cpuUsage(before);
  const done = n - start;
  const elapsed = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ kind, requests: done, rps: Math.round(done / elapsed), cpuUsPerRequest: Math.round((cpu.user + cpu.system) / done) }));
  await handle.close();
} finally {
  await database.drop();
}
process.exit(0);
