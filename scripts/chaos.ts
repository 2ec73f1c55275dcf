/**
 * `npm run chaos`: the long version of tests/server-only/pool-recovery.test.ts, against real processes (issue 21).
 * On a fresh database of the local PostgreSQL server (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/
 * postgres): a production web process (`next start`, built first if .next is missing) and a webhook worker
 * process; confirms at CHAOS_CONCURRENCY (default 20) for CHAOS_SECONDS (default 40) while, on a schedule,
 * the database's backends are terminated, the web process is SIGKILLed and restarted, and the worker is
 * SIGKILLed and restarted. Then it checks that every payment answered 2xx exists exactly once with exactly one
 * event, and that every answer was a 2xx, a 503 or no answer (the web process down); exit code 1 otherwise.
 * Local only: it refuses a non-local server. Bounded: about CHAOS_SECONDS + 30 s after the build.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import pg from "pg";

const serverUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
if (!["127.0.0.1", "localhost", "::1"].includes(new URL(serverUrl).hostname)) {
  console.error("npm run chaos terminates backends and kills processes: it runs only against a local PostgreSQL server.");
  process.exit(2);
}
const seconds = Number(process.env.CHAOS_SECONDS ?? 40);
const concurrency = Number(process.env.CHAOS_CONCURRENCY ?? 20);
// CHAOS_PORT: the web process's port (default: a random one from 4100).
const port = Number(process.env.CHAOS_PORT ?? 4100 + Math.floor(Math.random() * 800));
const name = `mps_chaos_${Date.now().toString(36)}`;
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const env = {
  ...process.env,
  NODE_ENV: "production" as const,
  NEXT_TELEMETRY_DISABLED: "1",
  DATABASE_URL: url.toString(),
  AUTH_SECRET: randomBytes(24).toString("hex"),
  WEBHOOK_WORKER: "off",
  RATE_LIMIT_PER_KEY: "100000",
  RATE_LIMIT_PER_IP: "100000",
  LOG_LEVEL: "error",
  // The merchant's webhook points at a closed local port: deliveries fail and retry, which is load for the worker.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
};

/** One statement on a connection of its own: the chaos below terminates connections to the database. */
async function query<T extends Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

await query(serverUrl, `create database "${name}"`);
let web: ChildProcess | undefined;
let worker: ChildProcess | undefined;
const log = (message: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}`);

function startWeb() {
  web = spawn("node", ["node_modules/next/dist/bin/next", "start", "-p", String(port)], { env, stdio: "ignore", detached: true });
}
function startWorker() {
  worker = spawn("node", ["node_modules/tsx/dist/cli.mjs", "scripts/worker.ts"], { env, stdio: "ignore", detached: true });
}
async function waitForReady(deadlineMs = 60_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the web process did not become ready");
}
async function terminateBackends() {
  const rows = await query(serverUrl, "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
  log(`terminated ${rows.length} backends`);
}
/** SIGKILL a child's whole process group (tsx runs the worker in a child process of its own). */
function killGroup(child: ChildProcess | undefined) {
  try {
    if (child?.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
async function kill(which: "web" | "worker") {
  killGroup(which === "web" ? web : worker);
  await new Promise((resolve) => setTimeout(resolve, 300));
  log(`SIGKILLed the ${which} process; restarting it`);
  if (which === "web") startWeb();
  else startWorker();
}

const answers: { externalId: string; status: number }[] = [];
try {
  if (!existsSync(".next/BUILD_ID")) {
    log("building (no .next/BUILD_ID)");
    const build = spawnSync("node", ["node_modules/next/dist/bin/next", "build"], { env, stdio: "inherit" });
    if (build.status !== 0) throw new Error("next build failed");
  }
  startWeb();
  startWorker();
  await waitForReady();
  const register = await fetch(`http://127.0.0.1:${port}/api/v1/merchant/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Chaos shop", email: `chaos-${name}@example.com`, password: "chaos password 0123", webhookUrl: "http://127.0.0.1:9/hook" }),
  });
  if (register.status !== 201) throw new Error(`registering the merchant answered ${register.status}: ${await register.text()}`);
  const { apiKey, merchant } = (await register.json()) as { apiKey: string; merchant: { id: string } };
  log(`merchant ${merchant.id}; load for ${seconds} s at ${concurrency} concurrent`);

  const end = Date.now() + seconds * 1000;
  const lane = async () => {
    while (Date.now() < end) {
      const externalId = `chaos_${randomBytes(6).toString("hex")}`;
      const status = await fetch(`http://127.0.0.1:${port}/api/v1/payment/confirm`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ externalId, amount: "10.00", currency: "USD" }),
        signal: AbortSignal.timeout(30_000),
      }).then((r) => r.status, () => 0); // 0: no answer (the web process was down)
      answers.push({ externalId, status });
      if (status === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const at = (fraction: number, action: () => Promise<void>) =>
    new Promise<void>((resolve) => setTimeout(() => void action().then(resolve, resolve), fraction * seconds * 1000));
  await Promise.all([
    ...Array.from({ length: concurrency }, lane),
    at(0.15, terminateBackends),
    at(0.3, () => kill("web")),
    at(0.45, terminateBackends),
    at(0.6, () => kill("worker")),
    at(0.75, terminateBackends),
  ]);

  const rows = await query<{ external_id: string; payments: number; events: number }>(
    url.toString(),
    `select p.external_id, count(distinct p.id)::int as payments, count(e.id)::int as events
     from payments p left join events e on e.subject_id = p.id
     where p.merchant_id = $1 group by p.external_id`,
    [merchant.id],
  );
  const stored = new Map(rows.map((row) => [row.external_id, row]));
  const byStatus = new Map<number, number>();
  for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  log(`answers by status: ${JSON.stringify(Object.fromEntries(byStatus))}`);
  const problems = [
    ...answers.filter((a) => ![0, 200, 201, 503].includes(a.status)).map((a) => `${a.externalId}: answered ${a.status}`),
    ...answers.filter((a) => a.status === 200 || a.status === 201).flatMap((a) => {
      const row = stored.get(a.externalId);
      return row?.payments === 1 && row.events === 1 ? [] : [`${a.externalId}: answered ${a.status}, stored ${JSON.stringify(row ?? "nothing")}`];
    }),
    ...rows.filter((row) => row.events !== 1).map((row) => `${row.external_id}: ${row.events} events`),
  ];
  if (problems.length > 0) {
    console.error(`chaos: ${problems.length} problems\n${problems.slice(0, 20).join("\n")}`);
    process.exitCode = 1;
  } else {
    log(`ok: ${rows.length} payments stored, each once with one event; every 2xx among them`);
  }
} finally {
  killGroup(web);
  killGroup(worker);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await query(serverUrl, `drop database if exists "${name}" with (force)`);
}
