import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconciliations } from "../../src/server/db/schema";
import { MAX_MISSING_IN_FILE } from "../../src/server/services/reconciliations/schemas";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/*
 * A report's missingInFile lines are bounded (docs/reconciliation.md, "The window"): a window holding more of the
 * merchant's confirmed payments that the file does not list than MAX_MISSING_IN_FILE answers a clear 422 naming
 * the limit, quickly, and keeps nothing — never a 500 after the statement timeout, never a long transaction.
 */

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

const upload = (merchant: TestMerchant, file: string, query: Record<string, string>) =>
  api.post("/reconciliation", { key: merchant.apiKey, rawBody: file, query, headers: { "content-type": "text/csv" } });

/** `n` confirmed payments of the merchant, created now, in one statement. */
async function seedConfirmedPayments(merchant: TestMerchant, n: number, prefix: string) {
  await runtime.database.db.execute(sql`
    insert into payments (id, merchant_id, livemode, external_id, amount, currency, status, confirmed_at, created_at, updated_at)
    select 'pay_' || ${prefix} || lpad(g::text, 26 - length(${prefix}), '0'), ${merchant.merchant.id}, true, ${prefix} || '-' || g, 1.00, 'EUR', 'confirmed',
           ${runtime.now().toISOString()}::timestamptz, ${runtime.now().toISOString()}::timestamptz, ${runtime.now().toISOString()}::timestamptz
    from generate_series(1, ${n}::int) as g`);
}

describe("POST /reconciliation with a wide window", () => {
  it(`answers 422 reconciliation_window_too_large, naming the limit, when more than ${MAX_MISSING_IN_FILE} payments would be missingInFile`, async () => {
    const merchant = await registerTestMerchant(api);
    await seedConfirmedPayments(merchant, MAX_MISSING_IN_FILE + 2, "wide");
    const file = "externalId,amount,currency\nwide-1,1.00,EUR\nnot-ours,2.00,EUR\n";
    const started = Date.now();
    const refused = await upload(merchant, file, { from: "0100-01-01", to: "9998-12-31" });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: "reconciliation_window_too_large", detail: expect.stringContaining("10,000") });
    expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(["query.from", "query.to"]);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing half-written: no report, complete or not.
    const [kept] = await runtime.database.db.select({ n: count() }).from(reconciliations).where(eq(reconciliations.merchantId, merchant.merchant.id));
    expect(Number(kept!.n)).toBe(0);

    // Listing enough of them brings the rest under the limit: the same window is then reported in full.
    const listed = ["externalId,amount,currency", "wide-1,1.00,EUR", "wide-2,1.00,EUR"].join("\n") + "\n";
    const report = await upload(merchant, listed, { from: "0100-01-01", to: "9998-12-31" });
    expect(report.status, report.text).toBe(201);
    expect(report.body.summary).toMatchObject({ matched: 2, missingInFile: MAX_MISSING_IN_FILE });
  });

  it("bounds a window taken from the file's settledAt range the same way", async () => {
    const merchant = await registerTestMerchant(api);
    await seedConfirmedPayments(merchant, MAX_MISSING_IN_FILE + 1, "days");
    const day = runtime.now().toISOString().slice(0, 10);
    const refused = await upload(merchant, `externalId,amount,currency,settledAt\nelse-1,1.00,EUR,${day}\n`, {});
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "reconciliation_window_too_large" });
    expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(["body.settledAt"]);
  });
});
