import { submitted } from "../support/dashboard";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import type { SessionUser } from "../../src/server/services/users/session-user";
import { auditLog, payments, reconciliationLines, reconciliations } from "../../src/server/db/schema";
import { createReconciliation } from "../../src/server/services/reconciliations/create";
import { exportReconciliationLines } from "../../src/server/services/reconciliations/export-lines";
import { getReconciliation } from "../../src/server/services/reconciliations/get";
import { getReconciliationMapping, saveReconciliationMapping } from "../../src/server/services/reconciliations/mapping";
import { createCallerFactory, createTrpcContext } from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import { testClient, type TestClient } from "../support/client";
import { serviceContext } from "../support/context";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

const csv = (...lines: string[]) => lines.join("\n") + "\n";
const today = () => runtime.now().toISOString().slice(0, 10);

async function pay(merchant: TestMerchant, body: Record<string, unknown>) {
  const response = await api.post("/payment/confirm", { key: merchant.apiKey, body });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; externalId: string };
}

function upload(merchant: TestMerchant, file: string | Uint8Array, options: { query?: Record<string, string>; headers?: Record<string, string> } = {}) {
  return api.post("/reconciliation", {
    key: merchant.apiKey,
    rawBody: file,
    query: options.query,
    headers: { "content-type": "text/csv", ...options.headers },
  });
}

describe("POST /reconciliation", () => {
  it("reports each kind of line, compares amounts as exact decimals, and keeps the report", async () => {
    const [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
    const ids = { a: externalId("a"), b: externalId("b"), c: externalId("c"), d: externalId("d"), e: externalId("e"), p: externalId("p"), x: externalId("x") };
    const a = await pay(shop, { externalId: ids.a, amount: "10.10", currency: "USD" });
    const b = await pay(shop, { externalId: ids.b, amount: "5.00", currency: "EUR" });
    const c = await pay(shop, { externalId: ids.c, amount: "7.00", currency: "USD", reference: "REF-1" });
    const d = await pay(shop, { externalId: ids.d, amount: "0.000000000000000001", currency: "ETH" });
    const e = await pay(shop, { externalId: ids.e, amount: "3.00", currency: "USD" });
    await pay(shop, { externalId: ids.p, amount: "2.00", currency: "USD", status: "pending" });
    await pay(other, { externalId: ids.x, amount: "6.00", currency: "USD" });
    const day = today();

    const response = await upload(
      shop,
      csv(
        "externalId,reference,amount,currency,settledAt,fee",
        `${ids.a},,10.1,usd,${day},0.30`,
        `${ids.b},,5.00,USD,${day},`,
        `,REF-1,7.001,USD,${day},`,
        `${ids.d},,0.000000000000000001,ETH,${day},`,
        `${ids.d},,0.000000000000000001,ETH,${day},`,
        `unknown-1,,1.00,USD,${day},`,
        `${ids.x},,6.00,USD,${day},`,
        `${ids.a}-2,,abc,USD,${day},`,
        `${ids.a}-3,,0.000000000000000002,ETH,${day},`,
        `"broken,1.00,USD`,
      ),
    );
    expect(response.status, response.text).toBe(201);
    const report = response.body;
    expect(report.summary).toEqual({ matched: 2, mismatched: 3, missingInLedger: 3, missingInFile: 1, malformed: 2, refunds: { matched: 0, mismatched: 0, missingInLedger: 0 } });
    expect(report.fileLines).toBe(10);
    const lines = report.lines.map((line: any) => [line.lineNumber, line.status, line.reason, line.paymentId]);
    expect(lines).toEqual([
      [2, "matched", null, a.id],
      [3, "mismatched", "currency", b.id],
      [4, "mismatched", "amount", c.id],
      [5, "matched", null, d.id],
      [6, "mismatched", "duplicate", d.id],
      [7, "missingInLedger", null, null],
      // Another merchant's payment is not in this ledger.
      [8, "missingInLedger", null, null],
      [9, "malformed", expect.stringContaining("amount"), null],
      [10, "missingInLedger", null, null],
      [11, "malformed", expect.stringContaining("CSV"), null],
      [null, "missingInFile", null, e.id],
    ]);
    expect(report.lines[0]).toMatchObject({ externalId: ids.a, fileAmount: "10.1", ledgerAmount: "10.10", currency: "USD", fee: "0.30" });
    expect(report.lines[1]).toMatchObject({ currency: "USD", ledgerCurrency: "EUR" });
    expect(report.lines[2]).toMatchObject({ externalId: ids.c, reference: "REF-1", fileAmount: "7.001", ledgerAmount: "7.00" });
    expect(report.window).toEqual({ from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` });

    const again = await api.get(`/reconciliation/${report.id}`, { key: shop.apiKey });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(report);
    const mismatched = await api.get(`/reconciliation/${report.id}`, { key: shop.apiKey, query: { status: "mismatched" } });
    expect(mismatched.body.lines.map((line: any) => line.reason)).toEqual(["currency", "amount", "duplicate"]);

    const [audit] = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, report.id));
    expect(audit).toMatchObject({ action: "reconciliation.created", merchantId: shop.merchant.id, actorType: "api_key" });
  });

  it("uses from/to over the file's settledAt range, and finds no missingInFile without any window", async () => {
    const shop = await registerTestMerchant(api);
    const kept = await pay(shop, { externalId: externalId(), amount: "1.00", currency: "USD" });
    const noDates = await upload(shop, csv("externalId,amount,currency", "nope,1.00,USD"));
    expect(noDates.body.summary).toMatchObject({ missingInLedger: 1, missingInFile: 0 });
    expect(noDates.body.window).toEqual({ from: null, to: null });

    const windowed = await upload(shop, csv("externalId,amount,currency,settledAt", "nope,1.00,USD,2020-01-01"), { query: { from: today(), to: today() } });
    expect(windowed.body.lines.at(-1)).toMatchObject({ status: "missingInFile", paymentId: kept.id, ledgerAmount: "1.00", currency: "USD" });
    const outside = await upload(shop, csv("externalId,amount,currency,settledAt", "nope,1.00,USD,2020-01-01"));
    expect(outside.body.summary.missingInFile).toBe(0);
  });

  it("refuses a file without the columns it needs, and one that is empty, keeping nothing", async () => {
    const shop = await registerTestMerchant(api);
    const before = await runtime.database.db.select().from(reconciliations).where(eq(reconciliations.merchantId, shop.merchant.id));
    const noAmount = await upload(shop, csv("externalId,currency", "a,USD"));
    expect(noAmount.status).toBe(400);
    expect(noAmount.body).toMatchObject({ code: "validation_failed", errors: [{ path: "body.header", message: "needs an amount column" }] });
    const empty = await upload(shop, "");
    expect(empty.status).toBe(400);
    const json = await upload(shop, csv("externalId,amount,currency"), { headers: { "content-type": "application/json" } });
    expect(json.status).toBe(415);
    const after = await runtime.database.db.select().from(reconciliations).where(eq(reconciliations.merchantId, shop.merchant.id));
    expect(after).toEqual(before);
  });

  it("names a file that is not CSV text (a PNG, a PDF) instead of asking for its columns, keeping nothing", async () => {
    const shop = await registerTestMerchant(api);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const image = await upload(shop, png);
    expect(image.status).toBe(400);
    expect(image.body).toMatchObject({ code: "validation_failed", errors: [{ path: "body", message: "is a PNG image, not a CSV text file" }] });
    const pdf = await upload(shop, "%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n");
    expect(pdf.body).toMatchObject({ code: "validation_failed", errors: [{ path: "body", message: "is a PDF document, not a CSV text file" }] });
    // A header saved as Latin-1 (an invalid UTF-8 byte in a column name) is still a CSV file, not a binary one.
    const bytes = Uint8Array.from([...new TextEncoder().encode("externalId,amount,currency,Geb"), 0xfc, 0x68, 0x72, 0x0a, ...new TextEncoder().encode("x,1.00,EUR,0\n")]);
    const text = await upload(shop, bytes);
    expect(text.status, text.text).toBe(201);
    const kept = await runtime.database.db.select().from(reconciliations).where(eq(reconciliations.merchantId, shop.merchant.id));
    expect(kept).toHaveLength(1);
  });

  it("refuses a Content-Length over 10 MB with 413 before reading the body", async () => {
    const shop = await registerTestMerchant(api);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode("externalId,amount,currency\n"));
      },
    });
    const { dispatch } = await import("../../src/server/http/dispatch");
    const { routes } = await import("../../src/server/http/routes");
    const request = new Request("http://localhost/api/v1/reconciliation", {
      method: "POST",
      headers: { authorization: `Bearer ${shop.apiKey}`, "content-type": "text/csv", "content-length": String(10 * 1024 * 1024 + 1) },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await dispatch(runtime, routes, request);
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe("payload_too_large");
    // Constructing the request may pull a chunk ahead; the pipeline itself read none of it.
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("refuses a chunked body that passes 10 MB while streaming with 413, and keeps no half-written report", async () => {
    const shop = await registerTestMerchant(api);
    await pay(shop, { externalId: "big-1", amount: "1.00", currency: "USD" });
    const line = new TextEncoder().encode("big-1,1.00,USD\n".padStart(1024, " ").replace(/^ +/, (spaces) => "x".repeat(spaces.length - 1) + ","));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("note,externalId,amount,currency\n"));
      },
      pull(controller) {
        sent += line.byteLength;
        controller.enqueue(line);
      },
    });
    const { dispatch } = await import("../../src/server/http/dispatch");
    const { routes } = await import("../../src/server/http/routes");
    const request = new Request("http://localhost/api/v1/reconciliation", {
      method: "POST",
      headers: { authorization: `Bearer ${shop.apiKey}`, "content-type": "text/csv" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await dispatch(runtime, routes, request);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(11 * 1024 * 1024);
    const rows = await runtime.database.db.select().from(reconciliations).where(eq(reconciliations.merchantId, shop.merchant.id));
    expect(rows).toEqual([]);
    const orphanLines = await runtime.database.db.select({ id: reconciliationLines.reconciliationId }).from(reconciliationLines)
      .leftJoin(reconciliations, eq(reconciliations.id, reconciliationLines.reconciliationId)).where(eq(reconciliations.merchantId, shop.merchant.id));
    expect(orphanLines).toEqual([]);
  });

  it("answers another merchant's report with 404, and lets staff open it for that merchant", async () => {
    const [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
    const created = await upload(shop, csv("externalId,amount,currency", "a,1.00,USD"));
    expect((await api.get(`/reconciliation/${created.body.id}`, { key: other.apiKey })).status).toBe(404);
    const staff = serviceContext(runtime, { type: "staff", userId: "usr_staff", merchantId: shop.merchant.id });
    expect((await getReconciliation({ ctx: staff, input: { id: created.body.id } })).id).toBe(created.body.id);
    const staffForOther = serviceContext(runtime, { type: "staff", userId: "usr_staff", merchantId: other.merchant.id });
    await expect(getReconciliation({ ctx: staffForOther, input: { id: created.body.id } })).rejects.toMatchObject({ code: "not_found" });
    const fromStaff = await createReconciliation({ ctx: staff, input: { file: new Blob(["externalId,amount,currency\na,1.00,USD\n"]).stream() } });
    expect(fromStaff.summary.missingInLedger).toBe(1);
  });

  it("pages lines 1000 at a time with a cursor", async () => {
    const shop = await registerTestMerchant(api);
    const rows = Array.from({ length: 1500 }, (_, i) => `n${i},1.00,USD`);
    const created = await upload(shop, csv("externalId,amount,currency", ...rows));
    expect(created.body).toMatchObject({ hasMore: true, nextCursor: "1000" });
    expect(created.body.lines).toHaveLength(1000);
    const next = await api.get(`/reconciliation/${created.body.id}`, { key: shop.apiKey, query: { cursor: created.body.nextCursor } });
    expect(next.body.lines).toHaveLength(500);
    expect(next.body.lines[0].lineNumber).toBe(1002);
    expect(next.body).toMatchObject({ hasMore: false, nextCursor: null });
  });
});

describe("resolving, exporting and the remembered mapping (dashboard verbs)", () => {
  const caller = (session: SessionUser | null) => createCallerFactory(appRouter)(createTrpcContext(runtime, session));
  const merchantSession = (merchant: TestMerchant): SessionUser => ({ id: newId("user"), email: merchant.merchant.email, role: "merchant", merchantId: merchant.merchant.id, access: "member:owner" });
  const staffSession: SessionUser = { id: newId("user"), email: "support@example.com", role: "staff", merchantId: null, access: "staff:admin" };

  it("resolves one line (its payment marked reconciled, audit-logged), refuses a line without a payment, then all matched lines", async () => {
    const shop = await registerTestMerchant(api);
    const [a, b, c] = [await pay(shop, { externalId: externalId(), amount: "1.00", currency: "USD" }), await pay(shop, { externalId: externalId(), amount: "2.00", currency: "USD" }), await pay(shop, { externalId: externalId(), amount: "3.00", currency: "USD" })];
    const report = (await upload(shop, csv("externalId,amount,currency", `${a.externalId},1.00,USD`, `${b.externalId},2.00,USD`, `${c.externalId},3.5,USD`, "ghost,1.00,USD"))).body;
    const mine = caller(merchantSession(shop)).reconciliation;

    const line = await mine.resolveLine(submitted({ id: report.id, position: 3, note: "Processor short-paid; chased" }));
    expect(line).toMatchObject({ status: "mismatched", paymentId: c.id, resolutionNote: "Processor short-paid; chased" });
    expect(line.resolvedAt).not.toBeNull();
    expect((await api.get(`/payment/${c.id}`, { key: shop.apiKey })).body.reconciledAt).not.toBeNull();
    await expect(mine.resolveLine(submitted({ id: report.id, position: 4, note: "x" }))).rejects.toMatchObject({ code: "CONFLICT" });

    expect(await mine.resolveMatched(submitted({ id: report.id, note: "Settlement 2026-11-22" }))).toEqual({ resolved: 2 });
    // Done once: resolving again finds nothing left.
    expect(await mine.resolveMatched(submitted({ id: report.id, note: "again" }))).toEqual({ resolved: 0 });
    const [paymentA] = await runtime.database.db.select().from(payments).where(eq(payments.id, a.id));
    expect(paymentA).toMatchObject({ reconciliationNote: "Settlement 2026-11-22" });
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, shop.merchant.id));
    const actions = audit.map((entry) => `${entry.action} ${entry.targetId}`).sort();
    expect(actions).toEqual(expect.arrayContaining([
      `payment.reconciled ${a.id}`, `payment.reconciled ${b.id}`, `payment.reconciled ${c.id}`,
      `reconciliation.line_resolved ${report.id}`, `reconciliation.matched_resolved ${report.id}`,
    ]));
    const reopened = await mine.get({ id: report.id, status: "matched" });
    expect(reopened.lines.every((entry) => entry.resolutionNote === "Settlement 2026-11-22")).toBe(true);
  });

  it("keeps merchants to their own reports and lets staff work on a chosen merchant's", async () => {
    const [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
    const paid = await pay(shop, { externalId: externalId(), amount: "1.00", currency: "USD" });
    const report = (await upload(shop, csv("externalId,amount,currency", `${paid.externalId},1.00,USD`))).body;
    await expect(caller(merchantSession(other)).reconciliation.get({ id: report.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(merchantSession(other)).reconciliation.resolveMatched(submitted({ id: report.id, note: "x" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await caller(merchantSession(other)).reconciliation.list({})).data).toEqual([]);
    await expect(caller(merchantSession(shop)).reconciliation.staff.list({ merchantId: shop.merchant.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const staff = caller(staffSession).reconciliation.staff;
    expect((await staff.list({ merchantId: shop.merchant.id })).data.map((item) => item.id)).toEqual([report.id]);
    await expect(staff.get({ merchantId: other.merchant.id, id: report.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await staff.resolveMatched(submitted({ merchantId: shop.merchant.id, id: report.id, note: "Checked by support" }))).toEqual({ resolved: 1 });
    const [entry] = await runtime.database.db.select().from(auditLog).where(eq(auditLog.action, "reconciliation.matched_resolved"))
      .then((rows) => rows.filter((row) => row.targetId === report.id));
    expect(entry).toMatchObject({ actorType: "staff", actorId: staffSession.id, merchantId: shop.merchant.id });
    // An unknown merchant chosen by staff is a 404, not a failed insert.
    const nowhere = serviceContext(runtime, { type: "staff", userId: staffSession.id, merchantId: newId("merchant") });
    await expect(createReconciliation({ ctx: nowhere, input: { file: new Blob(["externalId,amount,currency\n"]).stream() } })).rejects.toMatchObject({ code: "not_found" });
  });

  it("reads a file through the merchant's column mapping, remembers it, and exports the report line by line", async () => {
    const shop = await registerTestMerchant(api);
    const paid = await pay(shop, { externalId: externalId(), amount: "12.50", currency: "EUR" });
    const ctx = serviceContext(runtime, { type: "user", userId: "usr_owner", merchantId: shop.merchant.id });
    const mapping = { externalId: "Transaction ID", amount: "Gross", currency: "Cur.", settledAt: "Date" };
    const file = new Blob([csv("Date,Transaction ID,Gross,Cur.,Memo", `2026-11-20,${paid.externalId},12.5,EUR,"=HYPERLINK(""x"")"`, "2026-11-20,zzz,1.00,EUR,")]).stream();
    const report = await createReconciliation({ ctx, input: { file, mapping } });
    expect(report.summary).toMatchObject({ matched: 1, missingInLedger: 1 });
    await saveReconciliationMapping({ ctx, input: mapping });
    expect(await getReconciliationMapping({ ctx })).toEqual(mapping);
    expect(await caller(merchantSession(shop)).reconciliation.mapping()).toEqual(mapping);
    await expect(createReconciliation({ ctx, input: { file: new Blob(["Date,Transaction ID,Gross,Cur.\n"]).stream(), mapping: { ...mapping, amount: "Net" } } })).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "body.header", message: 'has no column "Net" (mapped to amount)' }],
    });

    const pages = await exportReconciliationLines({ ctx, input: { id: report.id } });
    const exported = [];
    for await (const page of pages) exported.push(...page);
    expect(exported.map((line) => [line.lineNumber, line.status, line.fileAmount, line.ledgerAmount])).toEqual([[2, "matched", "12.5", "12.50"], [3, "missingInLedger", "1.00", null]]);
    const other = serviceContext(runtime, { type: "user", userId: "usr_other", merchantId: (await registerTestMerchant(api)).merchant.id });
    await expect(exportReconciliationLines({ ctx: other, input: { id: report.id } })).rejects.toMatchObject({ code: "not_found" });
    const [audit] = await runtime.database.db.select().from(auditLog).where(eq(auditLog.action, "reconciliation.exported")).then((rows) => rows.filter((row) => row.targetId === report.id));
    expect(audit).toMatchObject({ merchantId: shop.merchant.id, actorType: "user" });
  });
});
