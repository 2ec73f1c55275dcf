import { describe, expect, it } from "vitest";
import { guardInput, MAX_INPUT_DEPTH } from "./input-guard";

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("guardInput", () => {
  it("accepts ordinary input, astral characters (paired surrogates) included", () => {
    expect(guardInput("body", { name: "Café 🙂", tags: ["a", "b"], n: 1, ok: null, deep: nested(MAX_INPUT_DEPTH - 1) })).toEqual([]);
  });

  it("names each string or key PostgreSQL could not store", () => {
    const errors = guardInput("body", { name: "a\u0000b", list: ["ok", "\ud800"], ["k\u0000"]: 1, tail: "x\udfff" });
    expect(errors.map((error) => error.path).sort()).toEqual(["body.k\u0000", "body.list.1", "body.name", "body.tail"]);
  });

  it("refuses nesting past the limit without recursing into it", () => {
    const errors = guardInput("body", { metadata: nested(100_000) });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/deeper than/);
  });

  it("checks query and path values the same way", () => {
    expect(guardInput("query", { reference: "a\u0000" })).toHaveLength(1);
    expect(guardInput("params", { id: "pay_\ud800" })).toHaveLength(1);
  });
});
