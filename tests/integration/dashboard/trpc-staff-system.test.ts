import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditLog, deliveryAttempts, webhookDeliveries, webhookEndpointBreakers } from "../../../src/server/db/schema";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION } from "../../support/dashboard";
import { deliverDueNow } from "../../support/deliver-due-now";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { externalId } from "../../support/payments";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "../webhooks/receiver";

let runtime: TestRuntime;
let api: TestClient;
let healthy: TestReceiver;
let broken: TestReceiver;
let shop: TestMerchant;
let failing: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  healthy = await startReceiver();
  broken = await startReceiver((_request, response) => response.writeHead(503).end("down"));
  shop = await registerTestMerchant(api, { webhookUrl: healthy.url() });
  failing = await registerTestMerchant(api, { webhookUrl: broken.url() });
});
afterAll(async () => {
  await Promise.all([healthy.close(), broken.close()]);
  await runtime.close();
});
beforeEach(async () => {
  await runtime.database.db.delete(deliveryAttempts);
  await runtime.database.db.delete(webhookDeliveries);
  await runtime.database.db.delete(webhookEndpointBreakers);
});

const staff = () => dashboardAs(runtime, STAFF_SESSION).staff;
const confirm = (merchant: TestMerchant) =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId: externalId(), amount: "3.00", currency: "EUR" } });
// Breakers open after one failure here, for a minute.
const deps = () => deliveryDepsFor(runtime, { random: () => 0.5, schedule: [0, 10 * 60_000], breaker: { failureThreshold: 1, cooldownMs: 60_000 } });

describe("staff.system", () => {
  it("is refused to merchants and to anonymous callers", async () => {
    await expect(dashboardAs(runtime, merchantSession(shop)).staff.system()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(dashboardAs(runtime, null).staff.system()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("shows the queue now and over the hour: a delivery waiting since a commit two minutes ago", async () => {
    expect((await confirm(shop)).status).toBe(201);
    runtime.advanceTime(2 * 60_000 + 5_000);
    const view = await staff().system();
    expect(view.queue).toMatchObject({ due: 1, inFlight: 0, breakersOpen: 0 });
    expect(view.queue.oldestDueSeconds).toBeGreaterThan(120);
    expect(view.minutes).toHaveLength(60);
    const dues = view.minutes.map((minute) => minute.due);
    // Waiting at the last two minute marks, not before the commit.
    expect(dues.slice(-2)).toEqual([1, 1]);
    expect(dues.slice(0, -3).every((due) => due === 0)).toBe(true);
  });

  it("counts attempts a minute by outcome, with their lag, and names the merchant of a broken endpoint", async () => {
    expect((await confirm(shop)).status).toBe(201);
    expect((await confirm(shop)).status).toBe(201);
    expect((await confirm(failing)).status).toBe(201);
    runtime.advanceTime(1_500);
    expect(await deliverDueNow(deps())).toBe(3);
    runtime.advanceTime(1_000);
    const view = await staff().system();

    const totals: Record<string, number> = {};
    for (const minute of view.minutes) for (const [outcome, n] of Object.entries(minute.attempts)) totals[outcome] = (totals[outcome] ?? 0) + n;
    expect(totals).toEqual({ ok: 2, http: 1 });
    const busy = view.minutes.filter((minute) => Object.keys(minute.attempts).length > 0);
    expect(busy).toHaveLength(1);
    // Committed, then sent 1.5 s later on the test clock.
    expect(busy[0]!.lagMaxMs).toBeGreaterThanOrEqual(1_500);
    expect(busy[0]!.lagP99Ms).toBeGreaterThanOrEqual(1_500);
    // Nothing is waiting any more: the failed one is due again in ten minutes.
    expect(view.minutes.at(-1)!.due).toBe(0);

    expect(view.queue.breakersOpen).toBe(1);
    expect(view.troubledEndpoints).toEqual([
      expect.objectContaining({ merchantId: failing.merchant.id, merchantName: failing.merchant.name, url: broken.url(), state: "open", consecutiveFailures: 1 }),
    ]);
    expect(view.slowestEndpoints.map((endpoint) => [endpoint.merchantName, endpoint.attempts, endpoint.failures]).sort()).toEqual(
      [
        [shop.merchant.name, 2, 0],
        [failing.merchant.name, 1, 1],
      ].sort(),
    );
  });

  it("names the endpoints that are disabled, with their merchant and why: here one that answered 410 Gone", async () => {
    const gone = await startReceiver((_request, response) => response.writeHead(410).end("gone"));
    try {
      const closed = await registerTestMerchant(api, { webhookUrl: gone.url() });
      expect((await staff().system()).disabledEndpoints.map((endpoint) => endpoint.merchantId)).not.toContain(closed.merchant.id);
      expect((await confirm(closed)).status).toBe(201);
      runtime.advanceTime(1_000);
      await deliverDueNow(deps());
      const view = await staff().system();
      expect(view.disabledEndpoints).toContainEqual(
        expect.objectContaining({ merchantId: closed.merchant.id, merchantName: closed.merchant.name, url: gone.url(), reason: "gone" }),
      );
      expect(view.disabledEndpoints.map((endpoint) => endpoint.merchantId)).not.toContain(shop.merchant.id);
    } finally {
      await gone.close();
    }
  });

  it("is audited as a staff read across merchants: one row for repeated refreshes", async () => {
    const staffUser = { ...STAFF_SESSION, id: "usr_staff_system_audit" };
    await dashboardAs(runtime, staffUser).staff.system();
    await dashboardAs(runtime, staffUser).staff.system();
    const rows = await runtime.database.db.select().from(auditLog).where(and(eq(auditLog.actorId, staffUser.id), eq(auditLog.action, "staff.system_viewed")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "staff", merchantId: null, targetType: "system", targetId: "system" });
  });

  it("reports the pool of the answering process on a server, and none on the embedded database", async () => {
    const { pool } = await staff().system();
    if (runtime.database.kind === "embedded") expect(pool).toBeNull();
    else expect(pool).toMatchObject({ max: expect.any(Number), waiting: 0 });
  });
});
