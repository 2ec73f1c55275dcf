import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { createCallerFactory, createTrpcContext } from "../../../src/server/trpc/init";
import { appRouter } from "../../../src/server/trpc/router";
import { beginAs, completeAs } from "../../support/sign-in";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff } from "../../support/users";

let runtime: TestRuntime;
let api: TestClient;
let staff: SessionUser;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
let merchantUser: SessionUser;
const createCaller = createCallerFactory(appRouter);
const as = (session: SessionUser | null) => createCaller(createTrpcContext(runtime, session));

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  staff = (await createTestStaff(runtime)).user;
  merchantA = await registerTestMerchant(api);
  merchantB = await registerTestMerchant(api);
  // Signed in as the dashboard does (the password step, then the sign-in completed), so it is audit-logged.
  const begun = await beginAs(runtime, merchantA.merchant.email, merchantA.password);
  merchantUser = await completeAs(runtime, { token: begun.token, method: "password" });
});
afterAll(() => runtime.close());

describe("account.me", () => {
  it("answers the session's user, or null", async () => {
    expect(await as(merchantUser).account.me()).toEqual(merchantUser);
    expect(await as(null).account.me()).toBeNull();
  });
});

describe("staff.auditLog", () => {
  it("lists the audit log newest first for staff, filterable by merchant", async () => {
    const all = await as(staff).staff.auditLog({ limit: 100 });
    const times = all.data.map((entry) => entry.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const onlyA = await as(staff).staff.auditLog({ merchantId: merchantA.merchant.id });
    expect(onlyA.data.length).toBeGreaterThan(0);
    expect(onlyA.data.every((entry) => entry.merchantId === merchantA.merchant.id)).toBe(true);
    expect(onlyA.data.map((entry) => entry.action)).toEqual(expect.arrayContaining(["merchant.registered", "user.signed_in"]));
  });

  it("pages with a cursor, without repeating or skipping entries", async () => {
    const everything = (await as(staff).staff.auditLog({ limit: 100 })).data.map((entry) => entry.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const result = await as(staff).staff.auditLog({ limit: 2, cursor });
      seen.push(...result.data.map((entry) => entry.id));
      if (!result.hasMore) break;
      cursor = result.nextCursor!;
    }
    expect(seen).toEqual(everything.slice(0, seen.length));
    expect(seen.length).toBe(everything.length);
  });

  it("refuses a made-up cursor with invalid_cursor", async () => {
    await expect(as(staff).staff.auditLog({ cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "invalid_cursor" },
    });
  });

  it("is refused to merchants and to anonymous callers: no entry leaks", async () => {
    await expect(as(merchantUser).staff.auditLog({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(null).staff.auditLog({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(as(merchantUser).staff.merchant({ merchantId: merchantB.merchant.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
