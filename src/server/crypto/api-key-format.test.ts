import { describe, expect, it } from "vitest";
import { apiKeyDigest, apiKeyHint, generateApiKey, isWellFormedApiKey } from "./api-key-format";

describe("API key format", () => {
  it("generates prefixed keys that pass their own checksum", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{49}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it("generates sk_test_ keys for test mode, whose prefix is covered by the checksum", () => {
    const key = generateApiKey(false);
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{49}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(key.replace("sk_test_", "sk_live_"))).toBe(false);
  });

  it("generates rk_live_/rk_test_ keys for restricted keys, whose prefix is covered by the checksum", () => {
    for (const [livemode, prefix] of [[true, "rk_live_"], [false, "rk_test_"]] as const) {
      const key = generateApiKey(livemode, true);
      expect(key).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{49}$`));
      expect(isWellFormedApiKey(key)).toBe(true);
      // A restricted key's prefix swapped for a secret key's is no key at all.
      expect(isWellFormedApiKey(key.replace("rk_", "sk_"))).toBe(false);
    }
    expect(isWellFormedApiKey(generateApiKey().replace("sk_", "rk_"))).toBe(false);
    expect(isWellFormedApiKey(generateApiKey().replace("sk_", "xk_"))).toBe(false);
  });

  it("generates a different key every time", () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    expect(keys.size).toBe(200);
  });

  it("refuses a key with one character changed (checksum) without any lookup", () => {
    const key = generateApiKey();
    const i = 20;
    const changed = key.slice(0, i) + (key[i] === "a" ? "b" : "a") + key.slice(i + 1);
    expect(isWellFormedApiKey(changed)).toBe(false);
  });

  it("refuses wrong prefixes, lengths and characters", () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey(key.replace("sk_live_", "sk_test_"))).toBe(false);
    expect(isWellFormedApiKey(key + "0")).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1) + "-")).toBe(false);
    expect(isWellFormedApiKey("")).toBe(false);
  });

  it("stores a SHA-256 digest and shows only the last four characters", () => {
    const key = generateApiKey();
    expect(apiKeyDigest(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyDigest(key)).not.toContain(key.slice(8, 20));
    expect(apiKeyHint(key)).toBe("…" + key.slice(-4));
  });
});
