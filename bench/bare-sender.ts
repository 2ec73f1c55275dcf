/**
 * The bare loop of case 5: POSTs the bodies of the given deliveries to the receiver, `concurrency` at a
 * time, with undici (the worker's HTTP client) and no signing, claiming or recording. Prints
 * {"sent": n, "ms": elapsed, "cpuSeconds": …, "mainThreadBusy": 0–1} once done. Env: DATABASE_URL, TARGET_URL, CONCURRENCY, BATCH (delivery id prefix).
 */
import pg from "pg";
import { mainThreadCpuSeconds } from "./lib/proc";
import { Agent, request } from "undici";

const target = process.env.TARGET_URL!;
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const batch = process.env.BATCH!;

const client = new pg.Client({ connectionString: process.env.DATABASE_URL! });
await client.connect();
const { rows } = await client.query<{ id: string; type: string; created_at: Date; data: unknown }>(
  "select e.id, e.type, e.created_at, e.data from webhook_deliveries d join events e on e.id = d.event_id where d.id like $1",
  [batch + "%"],
);
await client.end();
const bodies = rows.map((row) => ({
  id: row.id,
  body: JSON.stringify({ type: row.type, timestamp: row.created_at.toISOString(), data: row.data }),
}));

const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
const started = performance.now();
const cpuBefore = process.cpuUsage();
const mainBefore = mainThreadCpuSeconds(process.pid);
let next = 0;
async function lane() {
  while (next < bodies.length) {
    const item = bodies[next++]!;
    const response = await request(target, {
      method: "POST",
      dispatcher,
      headers: { "content-type": "application/json", "webhook-id": item.id },
      body: item.body,
    });
    await response.body.dump();
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
const cpu = process.cpuUsage(cpuBefore);
const ms = performance.now() - started;
const mainThreadBusy = (mainThreadCpuSeconds(process.pid) - mainBefore) / (ms / 1000);
console.log(JSON.stringify({ sent: bodies.length, ms, cpuSeconds: (cpu.user + cpu.system) / 1e6, mainThreadBusy }));
await dispatcher.close();
