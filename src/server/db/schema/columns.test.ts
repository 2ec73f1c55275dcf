import { describe, expect, it } from "vitest";
import { dateFromPgText } from "./columns";

describe("a timestamptz column's reading of PostgreSQL's text", () => {
  it("reads every year as written, the ones below 100 included (new Date() reads 0049 as 2049)", () => {
    expect(new Date("0049-06-01 00:00:00+00").getUTCFullYear()).toBe(2049); // why not new Date()
    for (const [text, iso] of [
      ["0001-01-01 00:00:00+00", "0001-01-01T00:00:00.000Z"],
      ["0049-06-01 00:00:00+00", "0049-06-01T00:00:00.000Z"],
      ["0099-12-31 23:59:59.999+00", "0099-12-31T23:59:59.999Z"],
      ["0100-01-01 00:00:00+00", "0100-01-01T00:00:00.000Z"],
      ["2026-11-22 12:00:00+00", "2026-11-22T12:00:00.000Z"],
      ["9998-12-31 23:59:59.999999+00", "9998-12-31T23:59:59.999Z"],
    ] as const) {
      expect(dateFromPgText(text).toISOString()).toBe(iso);
    }
  });

  it("keeps milliseconds, truncating the microseconds a Date cannot hold", () => {
    expect(dateFromPgText("2026-11-22 12:00:00.5+00").toISOString()).toBe("2026-11-22T12:00:00.500Z");
    expect(dateFromPgText("2026-11-22 12:00:00.123999+00").toISOString()).toBe("2026-11-22T12:00:00.123Z");
    expect(dateFromPgText("1999-12-31 23:59:59.999999+00").toISOString()).toBe("1999-12-31T23:59:59.999Z");
  });

  it("applies the session's offset, in hours, minutes and seconds, either side of UTC", () => {
    expect(dateFromPgText("2026-11-23 01:45:00+13:45").toISOString()).toBe("2026-11-22T12:00:00.000Z");
    expect(dateFromPgText("2026-11-22 07:00:00-05").toISOString()).toBe("2026-11-22T12:00:00.000Z");
    expect(dateFromPgText("2026-11-22 02:30:00-09:30").toISOString()).toBe("2026-11-22T12:00:00.000Z");
    // Local mean time: zones before 1900 have offsets in seconds (Amsterdam was +00:19:32).
    expect(dateFromPgText("1880-01-01 00:19:32+00:19:32").toISOString()).toBe("1880-01-01T00:00:00.000Z");
    expect(dateFromPgText("0049-01-01 00:00:00-01").toISOString()).toBe("0049-01-01T01:00:00.000Z");
    expect(dateFromPgText("0044-03-15 00:00:00+00 BC").getUTCFullYear()).toBe(-43); // 1 BC is ISO's year 0
  });

  it("refuses text of another DateStyle or a special value rather than return a wrong time", () => {
    for (const text of ["Sun Nov 22 12:00:00 2026 UTC", "22/11/2026 12:00:00 UTC", "22.11.2026 12:00:00 UTC", "2026-1x-22 12:00:00+00", "2026-11-22 12:00:00+5", "infinity", "-infinity", ""]) {
      expect(() => dateFromPgText(text), text).toThrow(/Not an ISO-style timestamp/);
    }
  });
});
