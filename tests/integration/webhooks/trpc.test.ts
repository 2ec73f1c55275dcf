import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../src/server/db/schema";
import { emitEvent } from "../../../src/server/services/events/emit";
import { signatureHeaders } from "../../../src/server/webhooks/signing";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { startReceiver, type TestReceiver } from "./receiver";

/** The dashboard's webhooks procedures: same verbs as REST, plus secret reveal/rotation and staff retry. */

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;
let other: TestMerchant;

const asMerchant = (merchant: TestMerchant) => dashboardAs(runtime, merchantSession(merchant));
const asStaff = () => dashboardAs(runtime, STAFF_SESSION);

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver((_request, response) => response.writeHead(500).end());
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
  other = await registerTestMerchant(api, { webhookUrl: receiver.url() });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

async function failedDelivery(merchant: TestMerchant) {
  const { deliveryId } = await emitEvent({ ctx: merchantContext(runtime, merchant.merchant.id), input: { type: "payment.confirmed", data: {} } });
  await deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));
  return deliveryId!;
}

describe("webhooks tRPC router", () => {
  it("reveals the current secret, and audits the reveal without the secret", async () => {
    const { webhookSecret } = await asMerchant(shop).webhooks.revealSecret();
    expect(webhookSecret).toBe(shop.webhookSecret);
    const [entry] = await runtime.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, shop.merchant.id), eq(auditLog.action, "webhook_secret.revealed")));
    expect(entry).toMatchObject({ actorType: "user", actorId: merchantSession(shop).id });
    expect(JSON.stringify(entry)).not.toContain(webhookSecret.slice(6));
  });

  it("rotates the secret: the new one is revealed from then on, and both verify for 24 h", async () => {
    const rotated = await asMerchant(shop).webhooks.rotateSecret(submitted({}));
    const { previousSecretExpiresAt } = rotated;
    const webhookSecret = rotated.webhookSecret!;
    expect(previousSecretExpiresAt.getTime() - runtime.now().getTime()).toBeGreaterThan(23.9 * 3600_000);
    expect((await asMerchant(shop).webhooks.revealSecret()).webhookSecret).toBe(webhookSecret);
    const body = "{}";
    const timestamp = Math.floor(runtime.now().getTime() / 1000);
    for (const secret of [shop.webhookSecret, webhookSecret]) {
      const headers = signatureHeaders({ id: "evt_x", timestamp, body, secrets: [secret] });
      const response = await api.post("/webhook/verify", { key: shop.apiKey, body: { payload: body, headers } });
      expect(response.body.valid).toBe(true);
    }
    // A second rotation ends the oldest secret at once: never more than one previous secret.
    const third = (await asMerchant(shop).webhooks.rotateSecret(submitted({}))).webhookSecret!;
    const check = async (secret: string) => {
      const headers = signatureHeaders({ id: "evt_x", timestamp, body, secrets: [secret] });
      return (await api.post("/webhook/verify", { key: shop.apiKey, body: { payload: body, headers } })).body.valid;
    };
    expect([await check(shop.webhookSecret), await check(webhookSecret), await check(third)]).toEqual([false, true, true]);
  });

  it("lists, shows and retries the merchant's own deliveries only", async () => {
    const mine = await failedDelivery(shop);
    const theirs = await failedDelivery(other);
    const page = await asMerchant(shop).webhooks.failed({});
    expect(page.data.map((delivery) => delivery.id)).toContain(mine);
    expect(page.data.map((delivery) => delivery.id)).not.toContain(theirs);
    await expect(asMerchant(shop).webhooks.delivery({ id: theirs })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asMerchant(shop).webhooks.retry({ id: theirs })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await asMerchant(shop).webhooks.retry({ id: mine })).toMatchObject({ id: mine, status: "pending" });
    await expect(asMerchant(shop).webhooks.retry({ id: mine })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses a time range whose start is after its end, as REST does", async () => {
    const range = { since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" };
    await expect(asMerchant(shop).webhooks.failed(range)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("must not be after `until`") });
    await expect(asMerchant(shop).webhooks.retryFailed({ ...range, dryRun: true })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("lets support staff retry a merchant's failed delivery on their behalf, audited as staff", async () => {
    const id = await failedDelivery(other);
    const retried = await asStaff().webhooks.staffRetry(submitted({ merchantId: other.merchant.id, id }));
    expect(retried).toMatchObject({ id, status: "pending" });
    const [entry] = await runtime.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, "webhook_delivery.retried")));
    expect(entry).toMatchObject({ actorType: "staff", actorId: STAFF_SESSION.id, merchantId: other.merchant.id });
    // Naming the wrong merchant finds nothing.
    await expect(asStaff().webhooks.staffRetry(submitted({ merchantId: shop.merchant.id, id }))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses merchants on staff procedures and signed-out callers everywhere", async () => {
    await expect(asMerchant(shop).webhooks.staffRetry(submitted({ merchantId: shop.merchant.id, id: "whd_x" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    const anonymous = dashboardAs(runtime, null);
    await expect(anonymous.webhooks.revealSecret()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.webhooks.rotateSecret(submitted({}))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
