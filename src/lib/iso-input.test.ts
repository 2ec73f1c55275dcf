import { describe, expect, it } from "vitest";
import { isoDayInput, isoInstantInput } from "./iso-input";

describe("ISO inputs the database can store", () => {
  it("accepts ordinary instants and days, offsets included", () => {
    expect(isoInstantInput({ offset: true }).safeParse("2026-11-22T12:00:00+01:00").success).toBe(true);
    expect(isoDayInput().safeParse("2026-11-22").success).toBe(true);
  });

  it("refuses year 0, which PostgreSQL does not have, also when an offset lands there", () => {
    expect(isoInstantInput().safeParse("0000-01-01T00:00:00Z").success).toBe(false);
    expect(isoInstantInput({ offset: true }).safeParse("0001-01-01T00:00:00+14:00").success).toBe(false);
    expect(isoDayInput().safeParse("0000-06-01").success).toBe(false);
  });

  it("refuses years below 100: no payment is that old", () => {
    expect(isoInstantInput({ offset: true }).safeParse("0049-06-01T00:00:00Z").success).toBe(false);
    expect(isoInstantInput({ offset: true }).safeParse("0099-12-31T23:59:59.999Z").success).toBe(false);
    expect(isoInstantInput({ offset: true }).safeParse("0100-01-01T00:00:00Z").success).toBe(true);
    expect(isoDayInput().safeParse("0099-12-31").success).toBe(false);
  });

  it("refuses the last year, whose next day JavaScript prints as +010000", () => {
    expect(isoDayInput().safeParse("9999-12-31").success).toBe(false);
    expect(isoDayInput().safeParse("9998-12-31").success).toBe(true);
  });
});
