/**
 * node-postgres under sustained load: `CONCURRENCY` (32) loops of `select 1` on a pool of 10 for `BENCH_SECONDS`
 * (60), printing queries/s and this process's CPU per query every 5 s. CPU per query should stay flat for as long
 * as the load lasts: postgres.js 3.4.9, the driver before it, let it climb without bound (porsager/postgres#747).
 *
 *   npx node --import tsx bench/tools/pool-queue.ts
 */
import pg from "pg";
import { config } from "../lib/config";

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const concurrency = Number(process.env.CONCURRENCY ?? 32);

const pool = new pg.Pool({ connectionString: config.adminUrl, max: 10 });
let queries = 0;
let stopping = false;
const loop = async () => {
  while (!stopping) {
    await pool.query("select 1 as one");
    queries++;
  }
};
const loops = Array.from({ length: concurrency }, loop);

const started = Date.now();
let counted = 0;
let cpu = process.cpuUsage();
const report = setInterval(() => {
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  const n = queries - counted;
  counted = queries;
  const at = Math.round((Date.now() - started) / 1000);
  console.log(`${at} s: ${Math.round(n / 5)} queries/s, ${((used.user + used.system) / n).toFixed(1)} µs CPU per query`);
}, 5_000);

await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
stopping = true;
clearInterval(report);
await Promise.all(loops);
await pool.end();
