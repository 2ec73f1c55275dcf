import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { createTrpcContext } from "../../../src/server/trpc/init";
import { appRouter } from "../../../src/server/trpc/router";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { rowCounter } from "../../support/row-counts";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff } from "../../support/users";

let runtime: TestRuntime;
let api: TestClient;
let staff: SessionUser;
let shop: TestMerchant;
let merchantUser: SessionUser;
const as = (session: SessionUser | null) => dashboardAs(runtime, session);

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  staff = (await createTestStaff(runtime)).user;
  shop = await registerTestMerchant(api);
  merchantUser = merchantSession(shop);
});
afterAll(() => runtime.close());

/** A 41-level object: deeper than the 32 levels any input may nest. */
function deeplyNested(): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < 40; level++) value = { a: value };
  return value;
}

interface TrpcErrorShape {
  message: string;
  data: { code: string; httpStatus: number; errors?: { path: string; message: string }[] };
}

/** What the dashboard's browser client receives: one procedure call over HTTP, its JSON answer. */
async function overHttp(session: SessionUser, procedure: string, input: unknown, method: "GET" | "POST" = "POST") {
  const url = new URL(`http://localhost/api/trpc/${procedure}`);
  if (method === "GET") url.searchParams.set("input", JSON.stringify({ json: input }));
  const request = new Request(url, {
    method,
    headers: method === "POST" ? { "content-type": "application/json" } : {},
    body: method === "POST" ? JSON.stringify({ json: input }) : undefined,
  });
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createTrpcContext(runtime, session),
  });
  const body = await response.json();
  return { status: response.status, error: body.error ? superjson.deserialize<TrpcErrorShape>(body.error) : undefined };
}

describe("tRPC input the database cannot store", () => {
  const NUL = "a\u0000b";
  const LONE_SURROGATE = "a\ud800b";
  const cases: [string, () => Promise<unknown>, string][] = [
    ["apiKeys.create", () => as(merchantUser).apiKeys.create(submitted({ name: NUL })), "input.name"],
    ["merchants.update", () => as(merchantUser).merchants.update({ name: NUL }), "input.name"],
    ["merchants.update (unpaired surrogate)", () => as(merchantUser).merchants.update({ name: LONE_SURROGATE }), "input.name"],
    ["events.forSubject", () => as(merchantUser).events.forSubject({ subjectId: NUL }), "input.subjectId"],
    ["staff.merchant", () => as(staff).staff.merchant({ merchantId: NUL }), "input.merchantId"],
    ["payments.staff.list", () => as(staff).payments.staff.list({ merchantId: NUL }), "input.merchantId"],
    ["staff.auditLog", () => as(staff).staff.auditLog({ action: NUL }), "input.action"],
    ["staff.auditLog (unpaired surrogate)", () => as(staff).staff.auditLog({ action: "\udc00" }), "input.action"],
  ];

  it.each(cases)("%s answers validation_failed naming the field, not a 500", async (_name, call, path) => {
    await expect(call()).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "validation_failed", errors: [{ path, message: expect.stringContaining("NUL") }] },
    });
  });

  it("refuses a key holding NUL and nesting deeper than 32 levels, before any schema runs", async () => {
    await expect(as(merchantUser).merchants.update({ ["na\u0000me"]: "x" } as never)).rejects.toMatchObject({
      cause: { code: "validation_failed", errors: [{ path: "input.na\u0000me" }] },
    });
    const keys = [{ jwk: deeplyNested(), use: "sig" as const }];
    await expect(as(merchantUser).publishedKeys.publish(submitted({ keys }))).rejects.toMatchObject({
      cause: { code: "validation_failed", errors: [{ message: "nests deeper than 32 levels" }] },
    });
  });

  it("writes nothing when it refuses", async () => {
    const countRows = await rowCounter(runtime.database.db);
    const before = await countRows();
    await expect(as(merchantUser).apiKeys.create(submitted({ name: NUL }))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(as(merchantUser).merchants.update({ name: NUL })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await countRows()).toEqual(before);
    expect((await as(merchantUser).merchants.profile()).name).toBe(shop.merchant.name);
  });
});

describe("tRPC input validation errors over HTTP", () => {
  it("answer with the catalogue's validation_failed, field paths like REST's and a sentence naming the field, not zod's issue dump", async () => {
    const { apiKey } = await as(merchantUser).apiKeys.create(submitted({ name: "to roll" }));
    const unknownField = await overHttp(merchantUser, "apiKeys.roll", submitted({ id: apiKey.id, overlapHours: 0 }));
    expect(unknownField.status).toBe(400);
    expect(unknownField.error).toMatchObject({
      message: "The request has invalid fields. overlapHours: is not a known field",
      data: {
        code: "validation_failed",
        httpStatus: 400,
        // The unknown key's own path, not the object holding it.
        errors: [{ path: "input.overlapHours", message: "is not a known field" }],
      },
    });

    const blankName = await overHttp(merchantUser, "apiKeys.create", submitted({ name: "  " }));
    expect(blankName.status).toBe(400);
    expect(blankName.error!.message).toMatch(/^The request has invalid fields\. name: \S/);
    expect(blankName.error!.data).toMatchObject({ code: "validation_failed", errors: [{ path: "input.name", message: expect.any(String) }] });
    expect(blankName.error!.data.errors).toHaveLength(1);

    // Other failures keep their own code and carry no field errors.
    const unknownDelivery = await overHttp(merchantUser, "webhooks.delivery", { id: "whd_00000000000000000000000000" }, "GET");
    expect(unknownDelivery.status).toBe(404);
    expect(unknownDelivery.error!.data).toMatchObject({ code: "not_found" });
    expect(unknownDelivery.error!.data.errors).toBeUndefined();
  });

  it("answer a NUL in a query's input the same way", async () => {
    const answer = await overHttp(staff, "payments.staff.list", { merchantId: "a\u0000b" }, "GET");
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({
      message: "The request has invalid fields. merchantId: must not contain NUL characters or unpaired surrogates",
      data: { code: "validation_failed", errors: [{ path: "input.merchantId" }] },
    });
  });
});
