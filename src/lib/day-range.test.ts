import { describe, expect, it } from "vitest";
import { createdRangeOfDays } from "./day-range";

describe("a filter's UTC days as a list's created range", () => {
  it("starts the first day and ends the last (exclusive), across a month's and a leap year's end", () => {
    expect(createdRangeOfDays("2028-02-28", "2028-02-29")).toEqual({ createdFrom: "2028-02-28T00:00:00.000Z", createdTo: "2028-03-01T00:00:00.000Z" });
    expect(createdRangeOfDays(undefined, "2026-12-31")).toEqual({ createdFrom: undefined, createdTo: "2027-01-01T00:00:00.000Z" });
  });

  it("takes anything but a YYYY-MM-DD day as no bound", () => {
    expect(createdRangeOfDays("27/11/2026", "")).toEqual({ createdFrom: undefined, createdTo: undefined });
  });
});
