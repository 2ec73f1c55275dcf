import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase, SERVER_TIMEOUTS } from "../../src/server/db/open";
import type { DatabaseHandle } from "../../src/server/db/types";
import { createRuntime } from "../../src/server/runtime";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

// Only on the PostgreSQL server: the service reaches it over TCP, through a proxy that can cut it off.
let runtime: TestRuntime;
let proxy: TcpProxy;
let handle: DatabaseHandle;
let api: TestClient;
let merchant: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  proxy = await startTcpProxy((runtime.database as DatabaseHandle & { url?: string }).url!);
  handle = await openServerDatabase(proxy.url, { max: 4 });
  api = testClient(createRuntime({ env: runtime.env, database: handle, log: runtime.log }));
  merchant = await registerTestMerchant(api);
});
afterAll(async () => {
  await handle?.close();
  await proxy?.close();
  await runtime?.close();
});

const confirm = (externalId: string) =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId, amount: "10.00", currency: "USD" } });

describe("requests while the database cannot be reached", () => {
  it("answer 503 service_unavailable with Retry-After, fast, and succeed again once it is back", async () => {
    expect((await confirm("before")).status).toBe(201);
    proxy.setDown(true);
    for (const externalId of ["during-1", "during-2"]) {
      const started = performance.now();
      const answer = await confirm(externalId);
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(answer.body.code).toBe("service_unavailable");
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(performance.now() - started).toBeLessThan(SERVER_TIMEOUTS.connectMs + 1_000);
    }
    expect((await api.get("/health/ready")).status).toBe(503);

    proxy.setDown(false);
    const after = await confirm("during-1"); // the client's retry
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    expect((await api.get("/health/ready")).status).toBe(200);
    // No connection was lost to the pool on the way (a transaction whose BEGIN met a dead one gave it back).
    await expect.poll(() => handle.poolStats!().inUse).toBe(0);
  }, 30_000);
});
