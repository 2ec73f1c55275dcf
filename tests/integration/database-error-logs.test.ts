import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { newId } from "../../src/lib/ids";
import { apiKeys } from "../../src/server/db/schema";
import { handleRoute } from "../../src/server/http/handle";
import { defineRoute } from "../../src/server/http/route";
import type { ServiceContext } from "../../src/server/services/context";
import { testClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  shop = await registerTestMerchant(testClient(runtime));
});
afterAll(() => runtime.close());

/** Looks like what these errors could carry: an API key digest. */
const secretLike = () => randomBytes(32).toString("hex");

const keyRow = (merchantId: string, digest: string) => ({
  id: newId("apiKey"),
  merchantId,
  digest,
  hint: "…abcd",
  createdAt: new Date(),
});

/** Runs `query` as a REST route handler, so its failure takes the real path: a 500 and one logged error. */
async function failThroughRoute(query: (ctx: ServiceContext) => Promise<unknown>) {
  const route = defineRoute({
    operationId: "failingQuery",
    method: "GET",
    path: "/failing-query",
    summary: "test only",
    tags: [],
    auth: "none",
    responses: { 200: { description: "never", schema: z.object({}) } },
    handler: async ({ ctx }) => {
      await query(ctx);
      return { status: 200, body: {} };
    },
  });
  const response = await handleRoute(runtime, route, new Request("http://localhost/api/v1/failing-query"), {});
  expect(response.status).toBe(500);
  const requestId = response.headers.get("x-request-id")!;
  const line = runtime.logs.find((entry) => entry.includes(requestId) && entry.includes("unhandled error"));
  expect(line, "the failure is logged").toBeDefined();
  return line!;
}

describe("a database error in the logs", () => {
  it("keeps the SQL, the PostgreSQL code and constraint, never a unique violation's bound values or detail", async () => {
    const digest = secretLike();
    const line = await failThroughRoute((ctx) => ctx.db.insert(apiKeys).values([keyRow(shop.merchant.id, digest), keyRow(shop.merchant.id, digest)]));
    expect(line).not.toContain(digest);
    expect(line).not.toContain(shop.merchant.id);
    const { err } = JSON.parse(line);
    expect(JSON.stringify(err)).toContain('"23505"');
    expect(JSON.stringify(err)).toContain("api_keys_merchant_digest_key");
    expect(JSON.stringify(err)).toContain('insert into \\"api_keys\\"');
  });

  it("never logs a foreign-key violation's values", async () => {
    const digest = secretLike();
    const merchantId = `mer_${secretLike()}`;
    const line = await failThroughRoute((ctx) => ctx.db.insert(apiKeys).values(keyRow(merchantId, digest)));
    expect(line).not.toContain(digest);
    expect(line).not.toContain(merchantId.slice(4));
    expect(JSON.stringify(JSON.parse(line).err)).toContain('"23503"');
  });

  it("never logs a value PostgreSQL quotes in its own message", async () => {
    const secret = secretLike();
    const line = await failThroughRoute((ctx) => ctx.db.execute(sql`select ${secret}::int as n`));
    expect(line).not.toContain(secret);
    const logged = JSON.stringify(JSON.parse(line).err);
    expect(logged).toContain('"22P02"');
    expect(logged).toContain("invalid input syntax for type integer");
  });
});
