import { describe, expect, it } from "vitest";
import { firstDuplicateKey } from "./duplicate-keys";

describe("firstDuplicateKey", () => {
  it("finds a key given twice, at any depth, as its path", () => {
    expect(firstDuplicateKey('{"amount":"1","currency":"USD","amount":"2"}')).toEqual(["amount"]);
    expect(firstDuplicateKey('{"metadata":{"a":1,"b":{"c":1},"a":2}}')).toEqual(["metadata", "a"]);
    expect(firstDuplicateKey('{"items":[{"x":1},{"y":1,"y":2}]}')).toEqual(["items", "1", "y"]);
  });

  it("compares keys as JSON.parse reads them (escapes unescaped)", () => {
    expect(firstDuplicateKey('{"a":1,"\\u0061":2}')).toEqual(["a"]);
  });

  it("does not mistake strings, values or sibling objects for duplicates", () => {
    expect(firstDuplicateKey('{"a":"\\"a\\":1","b":"a"}')).toBeNull();
    expect(firstDuplicateKey('{"a":{"x":1},"b":{"x":1}}')).toBeNull();
    expect(firstDuplicateKey('[{"a":1},{"a":1}]')).toBeNull();
    expect(firstDuplicateKey('{"a":[1,2,{"a":1}]}')).toBeNull();
    expect(firstDuplicateKey("{}")).toBeNull();
  });

  it("walks 30,000 levels of nesting without recursion", () => {
    const deep = `{"a":${"[".repeat(30_000)}${"]".repeat(30_000)},"a":1}`;
    expect(firstDuplicateKey(deep)).toEqual(["a"]);
  });
});
