import { describe, expect, it } from "vitest";
import { isId, newId } from "./ids";

describe("ids", () => {
  it("are prefixed by kind", () => {
    expect(newId("payment")).toMatch(/^pay_[0-9a-z]{26}$/);
    expect(newId("merchant")).toMatch(/^mer_/);
    expect(newId("delivery")).toMatch(/^whd_/);
    expect(newId("publishedKey")).toMatch(/^pk_/);
  });

  it("sort by creation order, even within one millisecond", () => {
    const ids = Array.from({ length: 1000 }, () => newId("event"));
    expect([...ids].sort()).toEqual(ids);
  });

  it("recognise their own kind only", () => {
    const id = newId("payment");
    expect(isId("payment", id)).toBe(true);
    expect(isId("merchant", id)).toBe(false);
    expect(isId("payment", id + "x")).toBe(false);
    expect(isId("payment", "pay_../../etc")).toBe(false);
  });
});
