import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { trpcResponseMeta } from "../../../src/server/trpc/errors";
import { createTrpcContext } from "../../../src/server/trpc/init";
import { appRouter } from "../../../src/server/trpc/router";
import { testClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff } from "../../support/users";

/**
 * Every dashboard call of a signed-in user counts against RATE_LIMIT_PER_USER a second (plus a burst of as many
 * again per 10 s), as API keys count against RATE_LIMIT_PER_KEY: one session cannot flood the service.
 */

const PER_SECOND = 3;
let runtime: TestRuntime;
let merchantUser: SessionUser;
let otherMerchantUser: SessionUser;
let staff: SessionUser;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_USER: String(PER_SECOND) } });
  const api = testClient(runtime);
  merchantUser = merchantSession(await registerTestMerchant(api));
  otherMerchantUser = merchantSession(await registerTestMerchant(api));
  staff = (await createTestStaff(runtime)).user;
});
afterAll(() => runtime.close());

/** Calls until the first refusal (or `max` calls); returns how many went through and the refusal. */
async function callUntilRefused(call: () => Promise<unknown>, max = 10 * PER_SECOND) {
  for (let allowed = 0; allowed < max; allowed++) {
    try {
      await call();
    } catch (error) {
      return { allowed, error };
    }
  }
  return { allowed: max, error: undefined };
}

describe("dashboard calls per signed-in user", () => {
  it("refuses a merchant user past the limit with rate_limited, and leaves other users alone", async () => {
    const { allowed, error } = await callUntilRefused(() => dashboardAs(runtime, merchantUser).merchants.profile());
    // The second's quota and the burst (more only if the calls straddled a second).
    expect(allowed).toBeGreaterThanOrEqual(2 * PER_SECOND);
    expect(allowed).toBeLessThan(4 * PER_SECOND);
    expect(error).toMatchObject({ code: "TOO_MANY_REQUESTS", cause: { code: "rate_limited" } });
    expect((error as Error).message).toMatch(/^Too many requests\. Retry after \d+ s\.$/);

    // Counted per user: another merchant's user, and staff, are not held back by this one.
    expect((await dashboardAs(runtime, otherMerchantUser).merchants.profile()).id).toBe(otherMerchantUser.merchantId);
    await expect(dashboardAs(runtime, staff).staff.auditLog({})).resolves.toBeDefined();
  });

  it("counts staff calls too", async () => {
    const staffOnly = { ...staff, id: `${staff.id}_second` };
    const { allowed, error } = await callUntilRefused(() => dashboardAs(runtime, staffOnly).staff.auditLog({}));
    expect(allowed).toBeGreaterThanOrEqual(2 * PER_SECOND);
    expect(error).toMatchObject({ code: "TOO_MANY_REQUESTS", cause: { code: "rate_limited" } });
  });

  it("answers a refused call over HTTP with 429, Retry-After and the RateLimit headers, as REST does", async () => {
    const user = merchantSession(await registerTestMerchant(testClient(runtime)));
    const overHttp = () =>
      fetchRequestHandler({
        endpoint: "/api/trpc",
        req: new Request("http://localhost/api/trpc/merchants.profile"),
        router: appRouter,
        createContext: () => createTrpcContext(runtime, user),
        responseMeta: trpcResponseMeta,
      });
    let response = await overHttp();
    for (let calls = 1; response.status === 200 && calls < 10 * PER_SECOND; calls++) response = await overHttp();

    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(response.headers.get("ratelimit-policy")).toBe(`"user";q=${PER_SECOND};w=1, "user_burst";q=${PER_SECOND};w=10`);
    expect(response.headers.get("ratelimit")).toMatch(/^"user";r=0;t=\d+$/);
  });
});
