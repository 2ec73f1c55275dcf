import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/server/runtime";
import { openServerDatabase } from "../../src/server/db/open";
import { rowsOf } from "../../src/server/db/rows";
import type { DatabaseHandle } from "../../src/server/db/types";
import { testClient } from "../support/client";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/**
 * The service must run behind a pooler in transaction mode that does not carry protocol-level named prepared
 * statements from one server connection to the next (PgBouncer before 1.21, docs/decisions.md, "Connection
 * poolers"): every statement is sent unnamed. Checked on one connection after the hot paths ran on it.
 */
let runtime: TestRuntime;
let handle: DatabaseHandle;

beforeAll(async () => {
  runtime = await createTestRuntime();
  handle = await openServerDatabase((runtime.database as DatabaseHandle & { url?: string }).url!, { max: 1 });
});
afterAll(async () => {
  await handle?.close();
  await runtime?.close();
});

describe("statements on the PostgreSQL server", () => {
  it("are never named prepared statements: register, confirm, get, list and search leave none behind", async () => {
    const api = testClient(createRuntime({ env: runtime.env, database: handle, log: runtime.log }));
    const merchant = await registerTestMerchant(api);
    const confirmed = await api.post("/payment/confirm", {
      key: merchant.apiKey,
      headers: { "idempotency-key": "unnamed-1" },
      body: { externalId: "unnamed-1", amount: "1.00", currency: "EUR" },
    });
    expect(confirmed.status).toBe(201);
    expect((await api.get(`/payment/${confirmed.body.id}`, { key: merchant.apiKey })).status).toBe(200);
    expect((await api.get("/payment", { key: merchant.apiKey, query: { limit: 5 } })).status).toBe(200);
    expect((await api.get("/payment", { key: merchant.apiKey, query: { q: "unnamed" } })).status).toBe(200);
    const prepared = rowsOf<{ name: string }>(await handle.db.execute(sql`select name from pg_prepared_statements`));
    expect(prepared).toEqual([]);
  });
});
