import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../../src/server/http/route";
import { routes } from "../../src/server/http/routes";
import { testClient } from "../support/client";
import { createTestKey, registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { securityFixtures } from "../support/security-fixtures";
import { coverageGaps, runSecuritySuite, type SecurityContext } from "../support/security-suite";

let runtime: TestRuntime;
let context: SecurityContext;

beforeAll(async () => {
  runtime = await createTestRuntime();
  const api = testClient(runtime);
  const owner = await registerTestMerchant(api);
  const other = await registerTestMerchant(api);
  context = { runtime, api, owner, other, testKeys: { [owner.merchant.id]: await createTestKey(api, owner), [other.merchant.id]: await createTestKey(api, other) } };
});
afterAll(() => runtime.close());

describe("security suite: every authenticated route", () => {
  runSecuritySuite({ routes, fixtures: securityFixtures, context: () => context });

  it("logged none of the keys it sent", () => {
    const logs = runtime.logs.join("\n");
    expect(logs).not.toContain(context.owner.apiKey);
    expect(logs).not.toContain(context.other.apiKey);
    for (const key of Object.values(context.testKeys)) expect(logs).not.toContain(key);
    expect(logs).not.toContain(context.owner.apiKey.slice(8, 30));
  });
});

describe("security suite coverage check", () => {
  const route = (method: "GET" | "POST", path: string, auth: "api_key" | "none") =>
    defineRoute({ operationId: path, method, path, summary: "", tags: [], ...(auth === "api_key" ? { auth, permission: "payments.read" as const } : { auth }), responses: { 200: { description: "", schema: z.object({}) } }, handler: async () => ({ status: 200 }) });

  it("reports an authenticated route without a fixture, and a fixture without a route", () => {
    const table = [route("GET", "/thing/{id}", "api_key"), route("POST", "/public", "none")];
    const fixtures = { "GET /gone": { kind: "action" as const, request: () => ({ path: "/gone" }) } };
    expect(coverageGaps(table, fixtures)).toEqual({ uncovered: ["GET /thing/{id}"], stale: ["GET /gone"] });
  });
});
