import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChains } from "../../../src/server/db/sql/audit-verify";
import { recordAudit, recordAudits } from "../../../src/server/services/audit/record";
import { inTransaction } from "../../../src/server/services/context";
import { withTransaction } from "../../../src/server/db/transaction";
import { testClient, type TestClient } from "../../support/client";
import { rowsOf } from "../../support/dump";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { serviceContext } from "../../support/users";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

interface ChainRow {
  id: string;
  seq: string | number;
  hash: string;
  action: string;
  ip: string | null;
  user_agent: string | null;
}

async function chainOf(merchantId: string): Promise<ChainRow[]> {
  return rowsOf<ChainRow>(
    await runtime.database.db.execute(sql`select id, seq, hash, action, ip, user_agent from audit_log where merchant_id = ${merchantId} order by seq`),
  );
}

const verify = (merchantId: string) => verifyAuditChains(runtime.database.db, { merchantId }).then(([report]) => report!);
const asSystem = (merchantId: string) => serviceContext(runtime, { type: "system", merchantId });

/** A merchant with a few audited changes: registration, two profile changes and an API key rolled. */
async function merchantWithHistory(): Promise<TestMerchant> {
  const shop = await registerTestMerchant(api);
  const headers = { "x-forwarded-for": "203.0.113.9", "user-agent": "audit-test/1.0" };
  for (const name of ["Renamed once", "Renamed twice"]) {
    const response = await api.put(`/merchant/${shop.merchant.id}`, { key: shop.apiKey, body: { name }, headers });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }
  return shop;
}

describe("each merchant's audit rows form a hash chain", () => {
  it("numbers a merchant's rows from 1 without gaps, links each to the one before, and records the client", async () => {
    const shop = await merchantWithHistory();
    const rows = await chainOf(shop.merchant.id);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => index + 1));
    expect(new Set(rows.map((row) => row.hash)).size).toBe(rows.length);
    const updates = rows.filter((row) => row.action === "merchant.updated");
    expect(updates).toHaveLength(2);
    expect(updates.map((row) => [row.ip, row.user_agent])).toEqual([
      ["203.0.113.9", "audit-test/1.0"],
      ["203.0.113.9", "audit-test/1.0"],
    ]);
    expect(await verify(shop.merchant.id)).toMatchObject({ entries: rows.length, firstBreak: null, headHash: rows.at(-1)!.hash });
  });

  it("records what changed: the field with its old and new value", async () => {
    const shop = await merchantWithHistory();
    const [last] = rowsOf<{ details: { changes: Record<string, { from: unknown; to: unknown }> } }>(
      await runtime.database.db.execute(
        sql`select details from audit_log where merchant_id = ${shop.merchant.id} and action = 'merchant.updated' order by seq desc limit 1`,
      ),
    );
    expect(last!.details.changes).toEqual({ name: { from: "Renamed once", to: "Renamed twice" } });
  });

  it("keeps one merchant's positions dense when many changes commit at once", async () => {
    const shop = await registerTestMerchant(api);
    const ctx = asSystem(shop.merchant.id);
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        withTransaction(ctx.db, (tx) => recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "test.concurrent", targetType: "test", targetId: String(index) } })),
      ),
    );
    const rows = await chainOf(shop.merchant.id);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, index) => index + 1));
    expect((await verify(shop.merchant.id)).firstBreak).toBeNull();
  });

  it("chains a bulk append row by row, across batches, as single appends would", async () => {
    const shop = await registerTestMerchant(api);
    const ctx = asSystem(shop.merchant.id);
    const before = (await chainOf(shop.merchant.id)).length;
    await withTransaction(ctx.db, (tx) =>
      recordAudits({ ctx: inTransaction(ctx, tx), inputs: Array.from({ length: 1203 }, (_, index) => ({ action: "test.bulk", targetType: "test", targetId: String(index), details: { index } })) }),
    );
    await recordAudit({ ctx, input: { action: "test.after_bulk", targetType: "test" } });
    const report = await verify(shop.merchant.id);
    expect(report).toMatchObject({ entries: before + 1204, firstBreak: null });
  });

  it("does not let a rolled-back change take a position", async () => {
    const shop = await registerTestMerchant(api);
    const ctx = asSystem(shop.merchant.id);
    await expect(
      withTransaction(ctx.db, async (tx) => {
        await recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "test.rolled_back", targetType: "test" } });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await recordAudit({ ctx, input: { action: "test.kept", targetType: "test" } });
    const rows = await chainOf(shop.merchant.id);
    expect(rows.map((row) => row.action)).not.toContain("test.rolled_back");
    expect((await verify(shop.merchant.id)).firstBreak).toBeNull();
  });
});

describe("audit verification names the first entry altered or removed", () => {
  it("an entry whose details were changed with SQL", async () => {
    const shop = await merchantWithHistory();
    const rows = await chainOf(shop.merchant.id);
    const target = rows[1]!;
    await runtime.database.db.execute(sql`update audit_log set details = '{"fields": ["nothing"]}'::jsonb where id = ${target.id}`);
    expect((await verify(shop.merchant.id)).firstBreak).toEqual({ kind: "altered", merchantId: shop.merchant.id, position: 2, id: target.id });
  });

  it("an entry whose hash was recomputed after changing it: its successor no longer links to it", async () => {
    const shop = await merchantWithHistory();
    const rows = await chainOf(shop.merchant.id);
    const target = rows[0]!;
    await runtime.database.db.execute(sql`
      update audit_log set action = 'merchant.nothing', hash = audit_entry_hash('', seq, id, actor_type, actor_id, merchant_id,
        'merchant.nothing', target_type, target_id, request_id, ip, user_agent, details, created_at)
      where id = ${target.id}`);
    expect((await verify(shop.merchant.id)).firstBreak).toEqual({ kind: "altered", merchantId: shop.merchant.id, position: 2, id: rows[1]!.id });
  });

  it("an entry deleted from the middle: the gap", async () => {
    const shop = await merchantWithHistory();
    const rows = await chainOf(shop.merchant.id);
    await runtime.database.db.execute(sql`delete from audit_log where id = ${rows[1]!.id}`);
    expect((await verify(shop.merchant.id)).firstBreak).toEqual({ kind: "missing", merchantId: shop.merchant.id, position: 2, through: 2, beforeId: rows[2]!.id });
  });

  it("the last entry deleted: the chain's head is longer than its rows", async () => {
    const shop = await merchantWithHistory();
    const rows = await chainOf(shop.merchant.id);
    await runtime.database.db.execute(sql`delete from audit_log where id = ${rows.at(-1)!.id}`);
    expect((await verify(shop.merchant.id)).firstBreak).toEqual({ kind: "truncated", merchantId: shop.merchant.id, position: rows.length, through: rows.length });
  });

  it("the last entry deleted and the head moved back with it: not detectable from the database alone", async () => {
    const shop = await merchantWithHistory();
    const rows = await chainOf(shop.merchant.id);
    const previous = rows.at(-2)!;
    await runtime.database.db.execute(sql`delete from audit_log where id = ${rows.at(-1)!.id}`);
    await runtime.database.db.execute(sql`update audit_chain_heads set seq = ${Number(previous.seq)}, hash = ${previous.hash} where chain = ${shop.merchant.id}`);
    // Only a head hash recorded outside the database (the command prints it) tells the difference.
    expect(await verify(shop.merchant.id)).toMatchObject({ firstBreak: null, headHash: previous.hash });
  });

  it("other merchants' chains stay intact, and the walk over every chain reports only the broken one", async () => {
    const broken = await merchantWithHistory();
    const intact = await merchantWithHistory();
    const rows = await chainOf(broken.merchant.id);
    await runtime.database.db.execute(sql`update audit_log set ip = '192.0.2.1' where id = ${rows[0]!.id}`);
    const reports = await verifyAuditChains(runtime.database.db);
    const byMerchant = new Map(reports.map((report) => [report.merchantId, report]));
    expect(byMerchant.get(intact.merchant.id)!.firstBreak).toBeNull();
    expect(byMerchant.get(broken.merchant.id)!.firstBreak).toMatchObject({ kind: "altered", position: 1 });
  });
});
