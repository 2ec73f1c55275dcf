/**
 * Did a change make a hot path slower? Two production builds of the app (this checkout and another, e.g. a
 * `git worktree` of an earlier commit, each already built with `next build`) served side by side on one fresh
 * database, measured interleaved (A B A B …) on the same requests: GET /payment/{id}, the 20-row list and
 * POST /payment/confirm (a new externalId and Idempotency-Key each). The VM's speed drifts by tens of percent within minutes here, so only such pairs compare.
 *
 *   npx node --import tsx bench/tools/ab-builds.ts <other checkout> [rounds=4] [seconds=8]
 *   AB_CASES="GET /payment,POST /payment/confirm"   (optional: only these cases, by name)
 *   AB_OTHER_NODE=/usr/bin/node                      (optional: the other build's Node.js binary; with this
 *                                                     checkout as the other one, an A/B of the runtime alone)
 *
 * Prints req/s and server CPU µs per request of each build, per round, and the medians.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { registerMerchant, seedPayments } from "../lib/context";
import { createDatabase, ROOT, startNext } from "../lib/env";
import { runLoad, type LoadSpec } from "../lib/load";
import { sleep } from "../lib/proc";
import { median, round } from "../lib/stats";

const other = path.resolve(process.argv[2] ?? "");
const rounds = Number(process.argv[3] ?? 4);
const seconds = Number(process.argv[4] ?? 8);
if (!process.argv[2]) throw new Error("usage: ab-builds.ts <other checkout> [rounds] [seconds]");

const database = await createDatabase();
// AB_BASE_PORT: the first of the two ports (default 3601), for a machine where those are taken.
const basePort = Number(process.env.AB_BASE_PORT ?? 3601);
const builds = [
  { name: "this", dir: ROOT, port: basePort, node: undefined as string | undefined },
  { name: process.env.AB_OTHER_NODE ? `${path.basename(other)} on ${process.env.AB_OTHER_NODE}` : path.basename(other), dir: other, port: basePort + 1, node: process.env.AB_OTHER_NODE },
];
const servers = [];
try {
  for (const build of builds) {
    servers.push(
      await startNext({
        name: build.name,
        port: build.port,
        cwd: build.dir,
        logFile: `/tmp/ab-${build.port}.log`,
        env: { DATABASE_URL: database.url },
        node: build.node,
      }),
    );
  }
  const merchant = await registerMerchant(servers[0]!, "ab");
  await seedPayments(database, merchant.id, 10_000, "ab");
  // Statistics, as autovacuum would gather them: without them the planner reads the list's 10,000 rows and sorts.
  await database.query(sql`analyze`);
  const [payment] = await database.query<{ id: string }>(sql`select id from payments where merchant_id = ${merchant.id} limit 1`);
  const paymentId = payment!.id;
  const auth = { authorization: `Bearer ${merchant.apiKey}` };
  let counter = 0;
  const confirm: Partial<LoadSpec> = {
    method: "POST",
    setupRequest: (request) => {
      const n = counter++;
      return {
        ...request,
        headers: { ...auth, "content-type": "application/json", "idempotency-key": `ab-${n}` },
        body: JSON.stringify({ externalId: `ab-${n}`, amount: "19.99", currency: "USD", status: "confirmed" }),
      };
    },
  };
  const allCases: { name: string; path: string; extra?: Partial<LoadSpec> }[] = [
    { name: "GET /payment/{id}", path: `/api/v1/payment/${paymentId}` },
    { name: "GET /payment", path: "/api/v1/payment?limit=20" },
    { name: "POST /payment/confirm", path: "/api/v1/payment/confirm", extra: confirm },
  ];
  // AB_CASES="GET /payment,POST /payment/confirm" picks cases by name; all three by default.
  const picked = process.env.AB_CASES?.split(",").map((name) => name.trim());
  const cases = picked ? allCases.filter(({ name }) => picked.includes(name)) : allCases;
  const results = new Map<string, { rps: number[]; cpu: number[] }>();
  for (const { name, path: urlPath, extra } of cases) {
    for (const server of servers) {
      // Warm-up: JIT and the connections of each server.
      await runLoad({ url: `http://127.0.0.1:${server.port}${urlPath}`, connections: 32, duration: 2, headers: auth, ...extra }, { servers: {} });
    }
    for (let i = 0; i < rounds; i++) {
      for (const server of i % 2 === 0 ? servers : [...servers].reverse()) {
        const result = await runLoad(
          { url: `http://127.0.0.1:${server.port}${urlPath}`, connections: 32, duration: seconds, headers: auth, ...extra },
          { servers: { server: server.pid } },
        );
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        const key = `${name} | ${server.name}`;
        const entry = results.get(key) ?? { rps: [], cpu: [] };
        entry.rps.push(result.rps);
        entry.cpu.push(result.cpu.server!.usPerRequest);
        results.set(key, entry);
        console.log(`${key}: ${round(result.rps)} req/s, ${round(result.cpu.server!.usPerRequest)} µs/req`);
        await sleep(500);
      }
    }
  }
  console.log("\nmedians:");
  for (const [key, { rps, cpu }] of results) console.log(`${key}: ${round(median(rps))} req/s, ${round(median(cpu))} µs/req`);
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await database.drop();
}
