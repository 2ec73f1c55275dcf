import { describe, expect, it } from "vitest";
import { isoMicrosFromUtcText, isoMillisFromUtcText } from "./utc-text";

describe("UTC timestamp text from PostgreSQL to ISO", () => {
  it("prints milliseconds as Date#toISOString does: padded, truncated, never rounded", () => {
    for (const [text, iso] of [
      ["2026-11-22 12:00:00", "2026-11-22T12:00:00.000Z"],
      ["2026-11-22 12:00:00.5", "2026-11-22T12:00:00.500Z"],
      ["2026-11-22 12:00:00.12", "2026-11-22T12:00:00.120Z"],
      ["2026-11-22 12:00:00.0005", "2026-11-22T12:00:00.000Z"],
      ["1999-12-31 23:59:59.999999", "1999-12-31T23:59:59.999Z"],
      ["0001-01-01 00:00:00.123", "0001-01-01T00:00:00.123Z"],
    ] as const) {
      expect(isoMillisFromUtcText(text)).toBe(iso);
      // The same instant through a Date, where a Date can hold it exactly.
      if (!text.includes(".0005") && !text.includes(".999999")) expect(new Date(iso).toISOString()).toBe(iso);
    }
  });

  it("keeps every microsecond for keyset positions", () => {
    expect(isoMicrosFromUtcText("2026-11-22 12:00:00")).toBe("2026-11-22T12:00:00.000000Z");
    expect(isoMicrosFromUtcText("2026-11-22 12:00:00.1234")).toBe("2026-11-22T12:00:00.123400Z");
    expect(isoMicrosFromUtcText("2026-11-22 12:00:00.999999")).toBe("2026-11-22T12:00:00.999999Z");
  });

  it("refuses text in another DateStyle or with an offset, rather than print a wrong time", () => {
    for (const text of ["11/22/2026 12:00:00", "Sun Nov 22 12:00:00 2026", "22.11.2026 12:00:00", "2026-11-22 12:00:00+00", "10000-01-01 00:00:00", "0044-03-15 12:00:00 BC"]) {
      expect(() => isoMillisFromUtcText(text)).toThrow(/ISO-style UTC timestamp/);
    }
  });
});
