/**
 * `npx node --import tsx bench/tools/metrics-cost.ts`: the CPU one request's metrics cost, measured alone (BENCHMARKS.md,
 * case 11): a million observations of the request histogram with metrics off, then on, over the labels of a mix of
 * routes and statuses. On a shared machine this resolves what an HTTP A/B cannot (a few µs against ≈ 2 ms a confirm).
 */
import { enableMetrics, observeHttpRequest } from "../../src/server/metrics/observe";

const CALLS = 1_000_000;
const labels = [
  ["POST", "/payment/confirm", 201],
  ["GET", "/payment/{id}", 200],
  ["GET", "/payment", 200],
  ["POST", "/payment/confirm", 409],
  ["GET", "unmatched", 404],
] as const;

function nsPerCall(): number {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const [method, route, status] = labels[i % labels.length]!;
    observeHttpRequest(method, route, status, (i % 100) / 1000);
  }
  const cpu = process.cpuUsage(before);
  return ((cpu.user + cpu.system) * 1000) / CALLS;
}

nsPerCall(); // warm-up, off
const off = nsPerCall();
enableMetrics();
nsPerCall(); // warm-up, on
const on = nsPerCall();
console.log(JSON.stringify({ calls: CALLS, offNsPerRequest: Math.round(off), onNsPerRequest: Math.round(on) }));
