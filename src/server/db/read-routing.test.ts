import { describe, expect, it } from "vitest";
import { ReadRouting, REPLICA_MAX_LAG_MS } from "./read-routing";
import { lsnValue, type ReplicaHandle } from "./replica";
import type { Database } from "./types";

// The routing rule alone, with a replica whose progress the test sets (the real one: tests/server-only/read-replica.test.ts).
const primary = { name: "primary" } as unknown as Database;
const replicaDb = { name: "replica" } as unknown as Database;
function routingWith(fresh: { at: number | null }) {
  const replica: ReplicaHandle = { db: replicaDb, freshAsOf: () => fresh.at, close: async () => {} };
  return new ReadRouting(primary, replica);
}

describe("ReadRouting", () => {
  it("reads from the primary alone without a replica, and reports no lag", () => {
    const routing = new ReadRouting(primary);
    routing.wrote("user:a");
    expect(routing.reader("user:a")).toBe(primary);
    expect(routing.reader(undefined)).toBe(primary);
    expect(routing.lagMs()).toBeNull();
  });

  it("sends a writer to the primary until the replica has replayed past their write, others to the replica", () => {
    const fresh = { at: performance.now() - 10 };
    const routing = routingWith(fresh);
    expect(routing.reader("user:a")).toBe(replicaDb);
    routing.wrote("user:a");
    expect(routing.reader("user:a")).toBe(primary);
    expect(routing.reader("key:b")).toBe(replicaDb);
    expect(routing.reader(undefined)).toBe(replicaDb);
    fresh.at = performance.now() + 1; // the replica now has everything committed before this instant
    expect(routing.reader("user:a")).toBe(replicaDb);
  });

  it("reads from the primary while the replica is unusable or lags beyond the bound", () => {
    const fresh: { at: number | null } = { at: null };
    const routing = routingWith(fresh);
    expect(routing.reader(undefined)).toBe(primary);
    expect(routing.lagMs()).toBe(Infinity);
    expect(routing.servingLagMs()).toBeNull();
    fresh.at = performance.now() - REPLICA_MAX_LAG_MS - 1_000;
    expect(routing.reader(undefined)).toBe(primary);
    expect(routing.servingLagMs()).toBeNull();
    fresh.at = performance.now() - 6_000;
    expect(routing.reader(undefined)).toBe(replicaDb);
    expect(routing.servingLagMs()).toBeGreaterThanOrEqual(6_000);
  });
});

describe("lsnValue", () => {
  it("orders WAL positions as PostgreSQL does, across the 32-bit boundary", () => {
    expect(lsnValue("0/16B3748")).toBeLessThan(lsnValue("0/16B3750"));
    expect(lsnValue("0/FFFFFFFF")).toBeLessThan(lsnValue("1/0"));
    expect(lsnValue("16/B374D848")).toBe((0x16n << 32n) | 0xb374d848n);
  });
});
