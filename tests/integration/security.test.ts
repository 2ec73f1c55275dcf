import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../../src/server/http/route";
import { routes } from "../../src/server/http/routes";
import { testClient } from "../support/client";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { securityFixtures } from "../support/security-fixtures";
import { coverageGaps, runSecuritySuite, type SecurityContext } from "../support/security-suite";

let runtime: TestRuntime;
let context: SecurityContext;

beforeAll(async () => {
  runtime = await createTestRuntime();
  const api = testClient(runtime);
  context = { runtime, api, owner: await registerTestMerchant(api), other: await registerTestMerchant(api) };
});
afterAll(() => runtime.close());

describe("security suite: every authenticated route", () => {
  runSecuritySuite({ routes, fixtures: securityFixtures, context: () => context });

  it("logged none of the keys it sent", () => {
    const logs = runtime.logs.join("\n");
    expect(logs).not.toContain(context.owner.apiKey);
    expect(logs).not.toContain(context.other.apiKey);
    expect(logs).not.toContain(context.owner.apiKey.slice(8, 30));
  });
});

describe("security suite coverage check", () => {
  const route = (method: "GET" | "POST", path: string, auth: "api_key" | "none") =>
    defineRoute({ operationId: path, method, path, summary: "", tags: [], auth, responses: { 200: { description: "", schema: z.object({}) } }, handler: async () => ({ status: 200 }) });

  it("reports an authenticated route without a fixture, and a fixture without a route", () => {
    const table = [route("GET", "/thing/{id}", "api_key"), route("POST", "/public", "none")];
    const fixtures = { "GET /gone": { kind: "action" as const, request: () => ({ path: "/gone" }) } };
    expect(coverageGaps(table, fixtures)).toEqual({ uncovered: ["GET /thing/{id}"], stale: ["GET /gone"] });
  });
});
