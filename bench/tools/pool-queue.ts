/**
 * postgres.js under sustained load: `CONCURRENCY` (32) loops of `select 1` on a pool of 10 for `BENCH_SECONDS`
 * (60), printing queries/s and this process's CPU per query every 5 s. With the package as published (3.4.9),
 * CPU per query climbs for as long as the load lasts (porsager/postgres#747; docs/decisions.md, "postgres.js 3.4.9 is patched"); with
 * patches/postgres+3.4.9.patch it stays flat. To see the unpatched driver, unpack it somewhere and point at it:
 *
 *   (cd /tmp && npm pack postgres@3.4.9 && tar xzf postgres-3.4.9.tgz)
 *   POSTGRES_MODULE=/tmp/package/src/index.js node --import tsx bench/tools/pool-queue.ts
 */
import postgres from "postgres";
import { config } from "../lib/config";

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const driver: typeof postgres = process.env.POSTGRES_MODULE ? (await import(process.env.POSTGRES_MODULE)).default : postgres;

const sql = driver(config.adminUrl, { max: 10, onnotice: () => {} });
let queries = 0;
let stopping = false;
const loop = async () => {
  while (!stopping) {
    await sql`select 1 as one`;
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
await sql.end({ timeout: 5 });
