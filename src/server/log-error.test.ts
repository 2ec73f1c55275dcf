import { TRPCError } from "@trpc/server";
import { DrizzleQueryError } from "drizzle-orm";
import { DatabaseError } from "pg";
import { describe, expect, it } from "vitest";
import { serializeError } from "./log-error";

const DIGEST = "5f2b9c0d4e8a7f6b1c3d2e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b";

/** What node-postgres rejects with: PostgreSQL's fields, some of which quote the values bound. */
function postgresError() {
  return Object.assign(new DatabaseError(`invalid input syntax for type integer: "${DIGEST}"`, 0, "error"), {
    severity: "ERROR",
    code: "22P02",
    where: `unnamed portal parameter $2 = '${DIGEST}'`,
    detail: `Key (digest)=(${DIGEST}) already exists.`,
  });
}

describe("serializeError", () => {
  it("logs a failed query wrapped as tRPC wraps it with its SQL and code, and none of its values", () => {
    const failed = new DrizzleQueryError("select * from api_keys where merchant_id = $1 and digest = $2", ["mer_1", DIGEST], postgresError());
    const wrapped = new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: failed });
    const logged = JSON.stringify(serializeError(wrapped));
    expect(logged).not.toContain(DIGEST);
    expect(logged).not.toContain("mer_1");
    expect(logged).toContain("select * from api_keys where merchant_id = $1 and digest = $2");
    expect(logged).toContain('"code":"22P02"');
    expect(logged).toContain('invalid input syntax for type integer: \\"[redacted]\\"');
  });

  it("keeps an ordinary error's fields and its cause's, each under its own message", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED", port: 6379 });
    const logged = serializeError(new Error("Redis for rate limits unavailable", { cause: refused }));
    expect(logged).toMatchObject({
      type: "Error",
      message: "Redis for rate limits unavailable",
      stack: expect.stringMatching(/^Error: Redis for rate limits unavailable\n\s+at /),
      cause: { type: "Error", message: "connect ECONNREFUSED 127.0.0.1:6379", code: "ECONNREFUSED", port: 6379 },
    });
  });
});
