import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchants, payments } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// issue 21's two cases, as a client would meet them; the fuzzer checks the same on every route with a body.
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const json = { "content-type": "application/json" };

describe("a JSON body", () => {
  it.each(["null", "[]", '"x"', "1", "true"])("that is %s, not an object, is refused with 400 and changes nothing", async (raw) => {
    const response = await api.put(`/merchant/${shop.merchant.id}`, { key: shop.apiKey, rawBody: raw, headers: json });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors).toEqual([{ path: "body", message: "must be a JSON object" }]);
    const [row] = await runtime.database.db.select().from(merchants).where(eq(merchants.id, shop.merchant.id));
    expect(row?.updatedAt.toISOString()).toBe(shop.merchant.updatedAt);
  });

  it("giving a key twice is refused with 400 naming the key, and records nothing", async () => {
    const id = externalId();
    const rawBody = `{"externalId":"${id}","amount":"10.00","currency":"USD","amount":"1000.00"}`;
    const response = await api.post("/payment/confirm", { key: shop.apiKey, rawBody, headers: json });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors).toEqual([{ path: "body.amount", message: "is given more than once" }]);
    expect(response.body.detail).toContain("body.amount");
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, id))).toEqual([]);
  });

  it("with a duplicate key inside metadata is refused the same way", async () => {
    const rawBody = `{"externalId":"${externalId()}","amount":"1.00","currency":"USD","metadata":{"order":"1","order":"2"}}`;
    const response = await api.post("/payment/confirm", { key: shop.apiKey, rawBody, headers: json });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "body.metadata.order", message: "is given more than once" }]);
  });
});
