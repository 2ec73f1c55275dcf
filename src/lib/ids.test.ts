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

  it("for invoices (capabilities) draw fresh randomness: ids made in one millisecond are not neighbours", () => {
    const ids = Array.from({ length: 200 }, () => newId("invoice"));
    expect(ids.every((id) => isId("invoice", id))).toBe(true);
    const randomParts = ids.map((id) => BigInt("0x" + [...id.slice(14)].map((c) => "0123456789abcdefghjkmnpqrstvwxyz".indexOf(c).toString(16).padStart(2, "0")).join("")));
    // The monotonic factory would make consecutive ids differ by exactly one in their random part.
    const neighbours = randomParts.slice(1).filter((part, i) => part - randomParts[i]! === 1n || randomParts[i]! - part === 1n);
    expect(neighbours).toHaveLength(0);
    expect(new Set(ids.map((id) => id.slice(14))).size).toBe(ids.length);
  });
});
