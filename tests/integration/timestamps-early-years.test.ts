import { eq, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { rowsOf } from "../../src/server/db/rows";
import { payments } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// Input refuses years below 0100 (lib/iso-input.ts), but a timestamp read back must never depend on that: the
// drivers' own `new Date(text)` turned 0049 into 2049. Rows here are written past the API, as a migration, a
// support fix or a future input path could, and read back by every path the app reads timestamps by.
let runtime: TestRuntime;
let api: TestClient;
let merchant: TestMerchant;
const id = newId("payment");
const EARLY = {
  occurredAt: "0049-06-01T00:00:00.000Z",
  confirmedAt: "0001-01-01T00:00:00.123Z",
  reconciledAt: "0099-12-31T23:59:59.999Z",
};

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  merchant = await registerTestMerchant(api);
  await runtime.database.db.insert(payments).values({
    id,
    merchantId: merchant.merchant.id,
    externalId: "early-years",
    amount: "1.00",
    currency: "USD",
    status: "confirmed",
    occurredAt: new Date(EARLY.occurredAt),
    confirmedAt: new Date(EARLY.confirmedAt),
    reconciledAt: new Date(EARLY.reconciledAt),
  });
});
afterAll(async () => {
  await runtime?.close();
});

describe("timestamps in the years 0001–0099", () => {
  it("are stored as given", async () => {
    const result = await runtime.database.db.execute(sql`select occurred_at::date::text as occurred from ${payments} where id = ${id}`);
    const [row] = rowsOf<{ occurred: string }>(result);
    expect(row!.occurred).toBe("0049-06-01");
  });

  it("read back unchanged through drizzle's columns", async () => {
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, id));
    expect(row!.occurredAt!.toISOString()).toBe(EARLY.occurredAt);
    expect(row!.confirmedAt!.toISOString()).toBe(EARLY.confirmedAt);
    expect(row!.reconciledAt!.toISOString()).toBe(EARLY.reconciledAt);
  });

  it("read back unchanged inside a transaction", async () => {
    const row = await runtime.database.db.transaction(async (tx) => (await tx.select().from(payments).where(eq(payments.id, id)))[0]!);
    expect(row.occurredAt!.toISOString()).toBe(EARLY.occurredAt);
    expect(row.confirmedAt!.toISOString()).toBe(EARLY.confirmedAt);
  });

  it("answer GET /payment/{id} and the list with the years as stored", async () => {
    const single = await api.get(`/payment/${id}`, { key: merchant.apiKey });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject(EARLY);
    const list = await api.get("/payment", { key: merchant.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id, ...EARLY });
  });

  it("compare with parameters by instant, not by text", async () => {
    const [row] = await runtime.database.db
      .select({ id: payments.id })
      .from(payments)
      .where(lt(payments.occurredAt, new Date("0050-01-01T00:00:00.000Z")));
    expect(row?.id).toBe(id);
  });
});
