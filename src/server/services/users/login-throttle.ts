import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimitedError } from "../errors";

/**
 * Brute-force limits on dashboard logins, counting failed attempts only:
 * per account (any address) and per client address (any account). A success clears the account's count.
 * Counters are in memory, or in Redis (shared by every web process) when REDIS_URL is set.
 */
export const LOGIN_LIMITS = {
  account: { points: 10, duration: 15 * 60, blockDuration: 15 * 60 },
  ip: { points: 50, duration: 60 * 60, blockDuration: 60 * 60 },
} as const;

interface Throttle {
  account: RateLimiterAbstract;
  ip: RateLimiterAbstract;
}

const throttles = new Map<string, Throttle>();

function throttleFor(redisUrl: string | undefined): Throttle {
  const key = redisUrl ?? "memory";
  let throttle = throttles.get(key);
  if (!throttle) {
    const make = (name: keyof typeof LOGIN_LIMITS) => {
      const options = { keyPrefix: `login_fail_${name}`, ...LOGIN_LIMITS[name] };
      if (!redisUrl) return new RateLimiterMemory(options);
      const storeClient = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: false });
      // If Redis is unreachable, count in this process rather than letting every guess through.
      return new RateLimiterRedis({ ...options, storeClient, insuranceLimiter: new RateLimiterMemory(options) });
    };
    throttle = { account: make("account"), ip: make("ip") };
    throttles.set(key, throttle);
  }
  return throttle;
}

async function blockedFor(limiter: RateLimiterAbstract, key: string, points: number): Promise<number> {
  const res = await limiter.get(key);
  return res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
}

export function loginThrottle(redisUrl: string | undefined) {
  const { account, ip } = throttleFor(redisUrl);
  return {
    /** Throws 429 when this account or this address has failed too often recently. */
    async check(email: string, address: string) {
      const wait = Math.max(
        await blockedFor(account, email, LOGIN_LIMITS.account.points),
        await blockedFor(ip, address, LOGIN_LIMITS.ip.points),
      );
      if (wait > 0) throw new RateLimitedError(wait);
    },
    async recordFailure(email: string, address: string) {
      // consume() rejects once over the limit; the block it sets is what check() reads next time.
      await Promise.allSettled([account.consume(email), ip.consume(address)]);
    },
    async recordSuccess(email: string) {
      await account.delete(email);
    },
  };
}
