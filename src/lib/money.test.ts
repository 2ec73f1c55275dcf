import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currencyExponent } from "./currencies";
import { addDecimals, canonicalAmount, compareDecimals, decimalsEqual, remainingDecimal, withDecimals } from "./money";

describe("canonicalAmount", () => {
  it("pads to the currency's exponent so equal amounts have equal strings", () => {
    expect(canonicalAmount("19.9", 2)).toEqual({ ok: true, amount: "19.90" });
    expect(canonicalAmount("19.90", 2)).toEqual({ ok: true, amount: "19.90" });
    expect(canonicalAmount("5", 0)).toEqual({ ok: true, amount: "5" });
    expect(canonicalAmount("0.000000000000000001", 18)).toEqual({ ok: true, amount: "0.000000000000000001" });
  });

  it.each([
    ["0", 2],
    ["0.00", 2],
    ["-1", 2],
    ["1.234", 2],
    ["1.5", 0],
    ["1e3", 2],
    ["01.00", 2],
    [".5", 2],
    ["5.", 2],
    [" 5", 2],
    ["NaN", 2],
    ["1".repeat(31), 2],
  ])("refuses %s with exponent %i", (text, exponent) => {
    expect(canonicalAmount(text, exponent).ok).toBe(false);
  });
});

describe("addDecimals", () => {
  it("adds exactly where floats cannot", () => {
    expect(addDecimals("0.10", "0.20")).toBe("0.30");
    expect(addDecimals("0.000000000000000001", "1.000000000000000000")).toBe("1.000000000000000001");
    expect(addDecimals("999999999999999999999999999999.99", "0.01")).toBe("1000000000000000000000000000000.00");
    expect(addDecimals("5", "7")).toBe("12");
  });

  it("agrees with BigInt arithmetic on minor units", () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 24n }), { minLength: 1, maxLength: 20 }), (units) => {
        const asText = units.map((u) => (u / 10n ** 8n).toString() + "." + (u % 10n ** 8n).toString().padStart(8, "0"));
        const sum = units.reduce((a, b) => a + b, 0n);
        expect(addDecimals(...asText)).toBe((sum / 10n ** 8n).toString() + "." + (sum % 10n ** 8n).toString().padStart(8, "0"));
      }),
    );
  });
});

describe("currencyExponent", () => {
  it("knows ISO 4217 minor units and common crypto assets", () => {
    expect(currencyExponent("USD")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("CLF")).toBe(4);
    expect(currencyExponent("BTC")).toBe(8);
    expect(currencyExponent("ETH")).toBe(18);
    expect(currencyExponent("USDT")).toBe(6);
    expect(currencyExponent("USDC")).toBe(6);
  });

  it("refuses what it does not know, including prototype keys", () => {
    expect(currencyExponent("XYZ")).toBeUndefined();
    expect(currencyExponent("toString")).toBeUndefined();
    expect(currencyExponent("XAU")).toBeUndefined();
  });
});

describe("decimalsEqual", () => {
  it("compares the numbers, not the spelling, to the last of 18 decimals", () => {
    expect(decimalsEqual("10.10", "10.1")).toBe(true);
    expect(decimalsEqual("007.50", "7.5")).toBe(true);
    expect(decimalsEqual("5", "5.000")).toBe(true);
    expect(decimalsEqual("0.000000000000000001", "0.000000000000000001")).toBe(true);
    expect(decimalsEqual("0.000000000000000001", "0.000000000000000002")).toBe(false);
    expect(decimalsEqual("1.000000000000000001", "1")).toBe(false);
    expect(decimalsEqual("0.3", "0.30000000000000004")).toBe(false);
  });

  it("is true exactly when the two scaled integers are equal", () => {
    const decimal = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 20 }));
    fc.assert(
      fc.property(decimal, decimal, ([a, aScale], [b, bScale]) => {
        const text = (units: bigint, scale: number) => {
          const digits = units.toString().padStart(scale + 1, "0");
          return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
        };
        const scale = Math.max(aScale, bScale);
        const same = a * 10n ** BigInt(scale - aScale) === b * 10n ** BigInt(scale - bScale);
        expect(decimalsEqual(text(a, aScale), text(b, bScale))).toBe(same);
      }),
    );
  });
});

describe("compareDecimals, remainingDecimal, withDecimals", () => {
  it("compare and subtract exactly, whatever the scales", () => {
    expect(compareDecimals("10.00", "10")).toBe(0);
    expect(compareDecimals("0.000000000000000001", "0")).toBe(1);
    expect(compareDecimals("9.99", "10")).toBe(-1);
    expect(remainingDecimal("30.00", "10.5")).toBe("19.50");
    expect(remainingDecimal("30.00", "31.50")).toBe("0.00");
  });

  it("write an amount with exactly the currency's decimals, never rounding", () => {
    expect(withDecimals("0", 2)).toBe("0.00");
    expect(withDecimals("19.9", 2)).toBe("19.90");
    expect(withDecimals("5.000", 0)).toBe("5");
    expect(withDecimals("1.230000", 8)).toBe("1.23000000");
    expect(() => withDecimals("1.235", 2)).toThrow();
  });
});
