import type { Env } from "@/env";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimitedError } from "../errors";
import { processWide } from "@/server/process-wide";

interface Limit {
  points: number;
  duration: number;
  blockDuration: number;
}

/**
 * Brute-force limits counting failed attempts only: per account (any address) and per client address (any
 * account). A success clears the account's count. A block lasts `blockDuration` seconds and then lifts by itself,
 * so an attacker can delay the owner of an account but never lock them out for good. Counters are in memory, or
 * in Redis (shared by every web process) when REDIS_URL is set.
 */
export const FAILURE_LIMITS = {
  /** Passwords at sign-in (and the current password when changing it). */
  login: {
    account: { points: 10, duration: 15 * 60, blockDuration: 15 * 60 },
    ip: { points: 50, duration: 60 * 60, blockDuration: 60 * 60 },
  },
  /** Authenticator and recovery codes and passkeys, at sign-in and when confirming a new authenticator. */
  second_factor: {
    account: { points: 5, duration: 15 * 60, blockDuration: 15 * 60 },
    ip: { points: 30, duration: 60 * 60, blockDuration: 60 * 60 },
  },
  /** Password reset links that are unknown, used or expired (the account is the link's, when there is one). */
  reset_link: {
    account: { points: 10, duration: 15 * 60, blockDuration: 15 * 60 },
    ip: { points: 20, duration: 60 * 60, blockDuration: 60 * 60 },
  },
  /** Team invitation links that are unknown, used, revoked or expired (the address only: a link names no account). */
  invitation_link: {
    account: { points: 10, duration: 15 * 60, blockDuration: 15 * 60 },
    ip: { points: 20, duration: 60 * 60, blockDuration: 60 * 60 },
  },
} as const satisfies Record<string, { account: Limit; ip: Limit }>;
export type FailureKind = keyof typeof FAILURE_LIMITS;

/** The login limits, under the name earlier code and tests use. */
export const LOGIN_LIMITS = FAILURE_LIMITS.login;

interface Throttle {
  account: RateLimiterAbstract;
  ip: RateLimiterAbstract;
}

/*
 * One set of counters per runtime, found by its configuration (`ctx.env` is the runtime's one `Env` object): the web
 * process has one runtime, so one set; each test runtime starts from zero, as its database does, even when test
 * files share a process (docs/testing.md, "Files share a process"). One set per process (processWide), not per
 * copy of this module: a password guessed wrong through the sign-in route must count for tRPC and the pages too.
 */
const throttlesPerRuntime = processWide("failureThrottles", () => new WeakMap<Env, Map<FailureKind, Throttle>>());

function throttleFor(kind: FailureKind, env: Env): Throttle {
  const redisUrl = env.REDIS_URL;
  let throttles = throttlesPerRuntime.get(env);
  if (!throttles) throttlesPerRuntime.set(env, (throttles = new Map()));
  let throttle = throttles.get(kind);
  if (!throttle) {
    const make = (name: "account" | "ip") => {
      // The login counters keep their original names, so a deployment's running counts carry over.
      const options = { keyPrefix: kind === "login" ? `login_fail_${name}` : `${kind}_fail_${name}`, ...FAILURE_LIMITS[kind][name] };
      if (!redisUrl) return new RateLimiterMemory(options);
      const storeClient = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: false });
      // If Redis is unreachable, count in this process rather than letting every guess through.
      return new RateLimiterRedis({ ...options, storeClient, insuranceLimiter: new RateLimiterMemory(options) });
    };
    throttle = { account: make("account"), ip: make("ip") };
    throttles.set(kind, throttle);
  }
  return throttle;
}

async function blockedFor(limiter: RateLimiterAbstract, key: string, points: number): Promise<number> {
  const res = await limiter.get(key);
  return res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
}

/** The failure counters of one kind of secret; `account` is any stable name of the account (email or user id). */
export function failureThrottle(kind: FailureKind, env: Env) {
  const { account, ip } = throttleFor(kind, env);
  const limits = FAILURE_LIMITS[kind];
  return {
    /** Throws 429 when this account or this address has failed too often recently. */
    async check(accountKey: string, address: string) {
      const wait = Math.max(await blockedFor(account, accountKey, limits.account.points), await blockedFor(ip, address, limits.ip.points));
      if (wait > 0) throw new RateLimitedError(wait);
    },
    async recordFailure(accountKey: string | null, address: string) {
      // consume() rejects once over the limit; the block it sets is what check() reads next time.
      await Promise.allSettled([accountKey ? account.consume(accountKey) : undefined, ip.consume(address)]);
    },
    async recordSuccess(accountKey: string) {
      await account.delete(accountKey);
    },
  };
}

/** Failed dashboard passwords, per email and per address. */
export function loginThrottle(env: Env) {
  return failureThrottle("login", env);
}
