import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * postgres.js 3.4.9 keeps its pool's lists (busy, open, full connections; queued queries) in a Queue whose
 * shift() leaves the consumed slot behind and whose remove() searched the array from its start. Under load the
 * busy list never runs empty, so every query (`move()` removes a connection from one list before pushing it on
 * another) scanned every slot ever consumed: CPU per query grew without bound and the array with it
 * (porsager/postgres#747; 48 → 188 µs per `select 1` within a minute at 32 in flight on 10 connections).
 * patches/postgres+3.4.9.patch makes remove() search the live part only and drops consumed slots once they
 * outnumber the live ones. This pins that, in the two builds Node.js loads (the patch leaves the Cloudflare
 * Workers build alone: docs/decisions.md).
 */
const require = createRequire(import.meta.url);
// The package exports only its entry points: resolve the CommonJS one (cjs/src/index.js) and go up to the root.
const packageDir = path.resolve(path.dirname(require.resolve("postgres")), "../..");
type Queue<T> = { length: number; push(x: T): T; shift(): T; remove(x: T): T | null };
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const builds: [string, () => Promise<QueueFactory>][] = [
  ["ESM (import)", async () => (await import(path.join(packageDir, "src/queue.js"))).default],
  ["CommonJS (require)", async () => require(path.join(packageDir, "cjs/src/queue.js"))],
];

/** How many array slots each indexOf() inside `run` looks at (from its start index to the end). */
function slotsScanned(run: () => void): number[] {
  const scanned: number[] = [];
  const indexOf = Array.prototype.indexOf;
  const spy = vi.spyOn(Array.prototype, "indexOf").mockImplementation(function (this: unknown[], item: unknown, from?: number) {
    scanned.push(this.length - (from ?? 0));
    return indexOf.call(this, item, from);
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return scanned;
}

afterEach(() => vi.restoreAllMocks());

describe.each(builds)("postgres.js pool queue, %s build", (_name, load) => {
  it("keeps the cost of moving a connection flat when the list never runs empty", async () => {
    const Queue = await load();
    const busy = Queue<{ connection: number }>();
    const connections = Array.from({ length: 10 }, (_, connection) => ({ connection }));
    for (const connection of connections) busy.push(connection);

    // What the pool does for each query once every connection is busy: take the next one, move() it
    // (remove from its list: already gone), and push it back.
    const cycle = () => {
      const connection = busy.shift();
      busy.remove(connection);
      busy.push(connection);
    };
    for (let query = 0; query < 50_000; query++) cycle();
    const scanned = slotsScanned(() => {
      for (let query = 0; query < 1_000; query++) cycle();
    });

    expect(scanned).toHaveLength(1_000);
    // Unpatched, each scan covered every slot consumed so far (~50,000); patched, the ten live entries.
    expect(Math.max(...scanned)).toBeLessThanOrEqual(connections.length);
    expect(busy.length).toBe(connections.length);
  });

  it("still removes, shifts and pushes in order around the dropped slots", async () => {
    const Queue = await load();
    const queue = Queue<number>();
    let next = 0;
    let expected = 0;
    for (let i = 0; i < 5; i++) queue.push(next++);
    for (let round = 0; round < 3_000; round++) {
      expect(queue.shift()).toBe(expected++);
      queue.push(next++);
    }
    // Remove one from the middle of the live part, then drain: order holds, nothing lost or repeated.
    expect(queue.remove(expected + 2)).toBe(expected + 2);
    expect(queue.remove(-1)).toBeNull();
    const rest: number[] = [];
    while (queue.length > 0) rest.push(queue.shift());
    expect(rest).toEqual([expected, expected + 1, expected + 3, expected + 4]);
  });
});
