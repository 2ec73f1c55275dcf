import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { openServerDatabase } from "../../src/server/db/open";
import { rowsOf } from "../../src/server/db/rows";
import { payments } from "../../src/server/db/schema";
import type { DatabaseHandle } from "../../src/server/db/types";
import { createRuntime } from "../../src/server/runtime";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { serverQuery } from "../support/server-admin";

// Only on the PostgreSQL server: its DBA may set another DateStyle or TimeZone as a database default, and the
// app reads timestamps as PostgreSQL's text (schema/columns.ts). PGlite is ours and keeps ISO.
let runtime: TestRuntime;
let handle: DatabaseHandle;
let api: TestClient;
let merchant: TestMerchant;
let url: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  url = (runtime.database as DatabaseHandle & { url?: string }).url!;
  merchant = await registerTestMerchant(testClient(runtime));
  const [database] = rowsOf<{ name: string }>(await runtime.database.db.execute(sql`select current_database() as name`));
  await runtime.database.db.execute(sql.raw(`alter database "${database!.name}" set "DateStyle" = 'SQL, DMY'`));
  await runtime.database.db.execute(sql.raw(`alter database "${database!.name}" set "TimeZone" = 'Pacific/Chatham'`));
  // Sessions opened from now on start with the database's defaults.
  handle = await openServerDatabase(url);
  api = testClient(createRuntime({ env: runtime.env, database: handle, log: runtime.log }));
});
afterAll(async () => {
  await handle?.close();
  await runtime?.close();
});

describe("timestamps when the database defaults to another DateStyle and TimeZone", () => {
  it("the defaults are in force for a plain session", async () => {
    const [row] = await serverQuery<{ style: string; now: string }>(url, "select current_setting('DateStyle') as style, now()::text as now");
    expect(row!.style).toBe("SQL, DMY");
    expect(row!.now).toMatch(/^\d{2}\/\d{2}\/\d{4} /);
  });

  it("the list renders ISO UTC times, byte for byte as GET does, and its cursors keep every microsecond", async () => {
    const older = newId("payment");
    const newer = newId("payment");
    await handle.db.insert(payments).values([
      {
        id: older,
        merchantId: merchant.merchant.id,
        externalId: "style-older",
        amount: "1.00",
        currency: "USD",
        status: "confirmed",
        occurredAt: sql`'2026-02-28 23:59:59.9995+00'::timestamptz` as unknown as Date,
        createdAt: sql`'2026-03-01 10:00:00.000001+00'::timestamptz` as unknown as Date,
      },
      {
        id: newer,
        merchantId: merchant.merchant.id,
        externalId: "style-newer",
        amount: "2.00",
        currency: "USD",
        status: "confirmed",
        createdAt: sql`'2026-03-01 10:00:00.000002+00'::timestamptz` as unknown as Date,
      },
    ]);

    const first = await api.get("/payment", { key: merchant.apiKey, query: { limit: 1 } });
    expect(first.status).toBe(200);
    expect(first.body.data.map((payment: { id: string }) => payment.id)).toEqual([newer]);
    expect(first.body.data[0].createdAt).toBe("2026-03-01T10:00:00.000Z");
    // The two rows share their millisecond: only the cursor's microseconds tell the second page where to start.
    const second = await api.get("/payment", { key: merchant.apiKey, query: { limit: 1, cursor: first.body.nextCursor } });
    expect(second.status).toBe(200);
    expect(second.body.data.map((payment: { id: string }) => payment.id)).toEqual([older]);
    expect(second.body.data[0].occurredAt).toBe("2026-02-28T23:59:59.999Z");

    const single = await api.get(`/payment/${older}`, { key: merchant.apiKey });
    expect(single.status).toBe(200);
    expect(JSON.stringify(second.body.data[0])).toBe(single.text);
  });

  it("drizzle's columns read the session's +13:45 offset into the right instant", async () => {
    const [row] = await handle.db.select().from(payments).where(eq(payments.externalId, "style-older"));
    expect(row!.occurredAt!.toISOString()).toBe("2026-02-28T23:59:59.999Z");
    expect(row!.createdAt.toISOString()).toBe("2026-03-01T10:00:00.000Z");
  });
});
