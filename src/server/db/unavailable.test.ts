import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

const withCode = (code: string) => Object.assign(new Error(code), { code });
const failedQuery = (cause: Error) => new Error("Failed query: select 1\nparams: ", { cause });

describe("isDatabaseUnavailable", () => {
  it("recognises a dropped, refused or timed-out connection, directly or as drizzle's cause", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "57P01", "57P03", "08006", "53300"]) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
      expect(isDatabaseUnavailable(failedQuery(withCode(code))), code).toBe(true);
    }
  });

  it("recognises node-postgres's connection errors, which carry no code", () => {
    for (const message of ["Connection terminated unexpectedly", "Client has encountered a connection error and is not queryable", "timeout exceeded when trying to connect"]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
      expect(isDatabaseUnavailable(failedQuery(new Error(message))), message).toBe(true);
    }
    // pg-pool's connect timeout, wrapping the client's own.
    expect(isDatabaseUnavailable(new Error("Connection terminated due to connection timeout", { cause: new Error("timeout expired") }))).toBe(true);
  });

  it("leaves query errors and everything else alone (those stay 4xx/500)", () => {
    for (const code of ["23505", "40001", "22P02", "57014", "ERR_SOMETHING"]) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    }
    // A query error whose message happens to read like a driver's stays a query error: it has a SQLSTATE.
    expect(isDatabaseUnavailable(Object.assign(new Error("Connection terminated"), { code: "P0001" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
