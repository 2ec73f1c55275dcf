import { randomInt } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient } from "../support/client";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// The Redis on this machine (CI has one too); tests use random client IPs, so runs never share counters.
const REDIS_URL = "redis://127.0.0.1:6379";
// Documentation-range IPv6 addresses with 64 random bits: counters of earlier runs (kept an hour) never collide.
const randomIp = () => `2001:db8::${Array.from({ length: 4 }, () => randomInt(1, 0xffff).toString(16)).join(":")}`;
const register = (api: ReturnType<typeof testClient>, ip: string) =>
  api.post("/merchant/register", { body: {}, headers: { "x-forwarded-for": ip } });

describe("rate limits in Redis (REDIS_URL set)", () => {
  // Two runtimes on two databases stand for two web processes behind one load balancer.
  let first: TestRuntime;
  let second: TestRuntime;

  beforeAll(async () => {
    first = await createTestRuntime({ env: { REDIS_URL } });
    second = await createTestRuntime({ env: { REDIS_URL } });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it("shares counters between processes", async () => {
    const ip = randomIp();
    const a = testClient(first);
    const b = testClient(second);
    for (let i = 0; i < 6; i++) expect((await register(a, ip)).status).toBe(400);
    for (let i = 0; i < 4; i++) expect((await register(b, ip)).status).toBe(400);
    const blocked = await register(a, ip);
    expect(blocked.status).toBe(429);
    expect((await register(b, ip)).status).toBe(429);
    expect(blocked.headers.get("ratelimit")).toContain('"register";r=0;');
  });

  it("keeps the counters in Redis, under the service's prefix", async () => {
    const ip = randomIp();
    await register(testClient(first), ip);
    const redis = new Redis(REDIS_URL);
    try {
      expect(Number(await redis.get(`mps:rl:register:${ip}`))).toBe(1);
      expect(await redis.pttl(`mps:rl:register:${ip}`)).toBeGreaterThan(3_500_000);
    } finally {
      redis.disconnect();
    }
  });
});

describe("rate limits when Redis is unreachable", () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails.
    runtime = await createTestRuntime({ env: { REDIS_URL: "redis://127.0.0.1:1" } });
  });
  afterAll(() => runtime.close());

  it("keeps serving and falls back to limiting in process", async () => {
    const api = testClient(runtime);
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await register(api, ip)).status).toBe(400);
    expect((await register(api, ip)).status).toBe(429);
    expect((await api.get("/health")).status).toBe(200);
  });
});
