import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

describe("isDatabaseUnavailable", () => {
  it("recognises a dropped, refused or timed-out connection, directly or as drizzle's cause", () => {
    for (const code of ["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "ECONNREFUSED", "57P01", "57P03", "08006", "53300"]) {
      expect(isDatabaseUnavailable(Object.assign(new Error(code), { code })), code).toBe(true);
      expect(isDatabaseUnavailable(new Error("Failed query", { cause: Object.assign(new Error(code), { code }) })), code).toBe(true);
    }
  });

  it("leaves query errors and everything else alone (those stay 4xx/500)", () => {
    for (const code of ["23505", "40001", "22P02", "57014", "ERR_SOMETHING"]) {
      expect(isDatabaseUnavailable(Object.assign(new Error(code), { code })), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new TypeError("x"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
