import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidEnvironmentError, parseEnv } from "./env";
import { generateSigningKey, parseSigningKey } from "./server/crypto/webhook-signing-key";

const secret = "s".repeat(32);

describe("configuration", () => {
  it("has working defaults for a fresh clone", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-env-"));
    const env = parseEnv({ DATA_DIR: dataDir });
    expect(env).toMatchObject({ PORT: 3000, WEBHOOK_WORKER: "inline", WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
    expect(env.WEBHOOK_RETRY_SCHEDULE).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5]);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("points checkout links at the port served when PUBLIC_BASE_URL is unset; a given address wins", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-env-"));
    expect(parseEnv({ DATA_DIR: dataDir }).PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(parseEnv({ DATA_DIR: dataDir, PORT: "4100" }).PUBLIC_BASE_URL).toBe("http://localhost:4100");
    expect(parseEnv({ DATA_DIR: dataDir, PORT: "4100", PUBLIC_BASE_URL: "https://pay.shop.example/" }).PUBLIC_BASE_URL).toBe(
      "https://pay.shop.example",
    );
  });

  it("keeps events at least 30 days and disables a failing endpoint after 5 days, both configurable", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-env-"));
    expect(parseEnv({ DATA_DIR: dataDir })).toMatchObject({ WEBHOOK_EVENT_RETENTION_DAYS: 30, WEBHOOK_DISABLE_AFTER: 5 * 86_400_000 });
    expect(parseEnv({ DATA_DIR: dataDir, WEBHOOK_EVENT_RETENTION_DAYS: "90", WEBHOOK_DISABLE_AFTER: "12h" })).toMatchObject({
      WEBHOOK_EVENT_RETENTION_DAYS: 90,
      WEBHOOK_DISABLE_AFTER: 12 * 3_600_000,
    });
    expect(() => parseEnv({ DATA_DIR: dataDir, WEBHOOK_EVENT_RETENTION_DAYS: "7" })).toThrow(InvalidEnvironmentError);
    expect(() => parseEnv({ DATA_DIR: dataDir, WEBHOOK_DISABLE_AFTER: "0" })).toThrow(InvalidEnvironmentError);
  });

  it("takes a replica and a direct connection only beside a server primary, naming the variable otherwise", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-env-"));
    const primary = "postgres://app@pooler:6432/app";
    expect(parseEnv({ DATA_DIR: dataDir, DATABASE_URL: primary, DATABASE_DIRECT_URL: "postgres://app@db:5432/app", DATABASE_REPLICA_URL: "postgresql://app@replica/app" })).toMatchObject({
      DATABASE_DIRECT_URL: "postgres://app@db:5432/app",
      DATABASE_REPLICA_URL: "postgresql://app@replica/app",
    });
    const orphan = () => parseEnv({ DATA_DIR: dataDir, DATABASE_REPLICA_URL: "postgres://app@replica/app" });
    expect(orphan).toThrow(InvalidEnvironmentError);
    expect(orphan).toThrow(/DATABASE_REPLICA_URL: needs DATABASE_URL/);
    expect(() => parseEnv({ DATA_DIR: dataDir, DATABASE_URL: primary, DATABASE_DIRECT_URL: "mysql://db/app" })).toThrow(/DATABASE_DIRECT_URL/);
  });

  it("generates AUTH_SECRET once into DATA_DIR, readable only by its owner, and reuses it", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-env-"));
    const first = parseEnv({ DATA_DIR: dataDir }).AUTH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(parseEnv({ DATA_DIR: dataDir }).AUTH_SECRET).toBe(first);
    const file = path.join(dataDir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it("requires AUTH_SECRET in production on a database server", () => {
    expect(() =>
      parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app" }),
    ).toThrow(/AUTH_SECRET/);
    expect(parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app", AUTH_SECRET: secret }).AUTH_SECRET).toBe(secret);
  });

  it.each([
    ["PORT", "eighty"],
    ["DATABASE_URL", "mysql://db"],
    ["WEBHOOK_WORKER", "sometimes"],
    ["WEBHOOK_RETRY_SCHEDULE", "0,5 minutes"],
    ["WEBHOOK_ALLOW_PRIVATE_TARGETS", "yes"],
    ["LOG_LEVEL", "loud"],
    ["REDIS_URL", "localhost:6379"],
    ["AUTH_SECRET", "short"],
    ["WEBHOOK_SIGNING_KEY", "whsec_c2hvcnQ="],
  ])("stops on a bad %s with a message naming it", (variable, value) => {
    try {
      parseEnv({ AUTH_SECRET: secret, [variable]: value });
      expect.fail("should have thrown");
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      expect((error as Error).message).toContain(variable);
    }
  });

  it("reads WEBHOOK_SIGNING_KEY as the list of signing keys, current first; unset, an empty list", () => {
    expect(parseEnv({ AUTH_SECRET: secret }).WEBHOOK_SIGNING_KEY).toEqual([]);
    const [current, previous] = [generateSigningKey(), generateSigningKey()];
    const publicKeys = (text: string) => parseEnv({ AUTH_SECRET: secret, WEBHOOK_SIGNING_KEY: text }).WEBHOOK_SIGNING_KEY.map((key) => key.publicKey);
    expect(publicKeys(current)).toEqual([parseSigningKey(current).publicKey]);
    expect(publicKeys(`${current},\n${previous}\n`)).toEqual([current, previous].map((text) => parseSigningKey(text).publicKey));
  });

  it.each([
    ["an invalid second key", (keys: string[]) => `${keys[0]} whsk_${keys[1]!.slice(5, 30)}`, /key 2 must be whsk_ followed by/],
    ["the same key twice", (keys: string[]) => `${keys[0]} ${keys[0]}`, /key 2 is the same key as key 1/],
    ["four keys", (keys: string[]) => keys.join(" "), /holds 4 keys; at most 3/],
  ])("stops on a WEBHOOK_SIGNING_KEY with %s, saying why without quoting a key", (_, make, reason) => {
    const keys = Array.from({ length: 4 }, generateSigningKey);
    try {
      parseEnv({ AUTH_SECRET: secret, WEBHOOK_SIGNING_KEY: make(keys) });
      expect.fail("should have thrown");
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      const message = (error as Error).message;
      expect(message).toMatch(new RegExp(`WEBHOOK_SIGNING_KEY: ${reason.source}`));
      for (const key of keys) expect(message).not.toContain(key.slice(5, 25));
    }
  });

  it("parses a millisecond schedule for tests", () => {
    expect(parseEnv({ AUTH_SECRET: secret, WEBHOOK_RETRY_SCHEDULE: "0,50ms,1s" }).WEBHOOK_RETRY_SCHEDULE).toEqual([0, 50, 1000]);
  });
});
