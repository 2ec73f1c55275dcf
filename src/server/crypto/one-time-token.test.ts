import { describe, expect, it } from "vitest";
import { digestToken, newOneTimeToken } from "./one-time-token";

describe("one-time tokens", () => {
  it("are 256 random bits, URL-safe, and stored only as a fixed-length digest", () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newOneTimeToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [first] = tokens;
    expect(digestToken(first!)).toMatch(/^[0-9a-f]{64}$/);
    expect(digestToken(first!)).toBe(digestToken(first!));
    expect(digestToken(first!)).not.toContain(first!);
  });
});
