import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// Over HTTP, two Authorization headers never reach the pipeline (src/server/http/refuse-before-next.ts); a Fetch
// Request joins them with ", ", and the pipeline refuses that the same way, whichever key comes first.
let runtime: TestRuntime;
let api: TestClient;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  alice = await registerTestMerchant(api);
  bob = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

describe("two Authorization headers", () => {
  it("are refused with 400 naming the header, not authenticated as either key", async () => {
    const headers = new Headers();
    headers.append("authorization", `Bearer ${alice.apiKey}`);
    headers.append("authorization", `Bearer ${bob.apiKey}`);
    const response = await api.get(`/merchant/${alice.merchant.id}`, { headers: Object.fromEntries(headers) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors).toEqual([{ path: "headers.authorization", message: "is given more than once" }]);
  });
});
