import { describe, expect, it } from "vitest";
import { formatMoney } from "./format-money";

describe("formatMoney", () => {
  // Intl separates a code from the digits with a no-break space.
  it("writes a currency in its own style with its own decimals", () => {
    expect(formatMoney("15693", "JPY")).toBe("¥15,693");
    expect(formatMoney("1234.5", "USD")).toBe("$1,234.50");
    expect(formatMoney("0.125", "KWD")).toBe("KWD\u00a00.125");
  });

  it("keeps every digit of an 18-decimal amount (no float on the way)", () => {
    expect(formatMoney("1234567.123456789012345678", "ETH")).toBe("ETH\u00a01,234,567.123456789012345678");
  });

  it("writes four-letter token codes after grouped digits", () => {
    expect(formatMoney("1000000.5", "USDT")).toBe("1,000,000.500000 USDT");
  });
});
