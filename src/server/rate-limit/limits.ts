import type { Redis } from "ioredis";
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { observeRateLimitRefusal } from "@/server/metrics/observe";
import type { Runtime } from "@/server/runtime";
import { RateLimitedError } from "@/server/services/errors";
import { openRateLimitRedis, REDIS_CONNECT_WAIT_MS, untilReady } from "./redis";

/**
 * A rate-limit policy: `limit` requests per `windowSeconds` for one subject (an IP, an API key or a
 * merchant), optionally with a burst allowance of `burst.limit` more requests per `burst.windowSeconds`.
 * Routes declare a stricter one in `defineRoute({ rateLimit })`; it applies on top of the default.
 */
export interface RateLimitPolicy {
  /** Names the counters (policies with one name share them) and the `RateLimit-Policy` item. */
  name: string;
  /**
   * Whose requests count together. `merchant`: all of a merchant's keys together, so that holding more keys
   * buys no more tries (the subject of stricter limits). `api_key` and `merchant` fall back to the IP on
   * unauthenticated routes. `user`: a signed-in dashboard user (tRPC calls, which pass the user's id as the
   * subject themselves; no REST route declares it). `email`: an address typed into a public dashboard form (the
   * password reset request; no REST route declares it).
   */
  by: "ip" | "api_key" | "merchant" | "user" | "email";
  limit: number;
  windowSeconds: number;
  burst?: { limit: number; windowSeconds: number };
  /** The limit in words, for the 429's detail ("At most 10 recovers an hour per merchant"); else a generic one. */
  describe?: string;
}

/** The shape of every default limit: `perSecond` requests a second, and as many again per 10 s as a burst. */
function perSecondPolicy(name: string, by: RateLimitPolicy["by"], perSecond: number): RateLimitPolicy {
  return { name, by, limit: perSecond, windowSeconds: 1, burst: { limit: perSecond, windowSeconds: 10 } };
}

/** The default per-key policy: RATE_LIMIT_PER_KEY requests a second, as many again per 10 s as a burst. */
export function apiKeyPolicy(perSecond: number): RateLimitPolicy {
  return perSecondPolicy("api_key", "api_key", perSecond);
}

/**
 * Test webhook sends (not dry runs), from the API and the dashboard alike (one name: one budget). Each is an
 * outbound request to a host and port of the caller's choosing, answered with a snippet of the response:
 * cheap to ask for, not to make. Per merchant, so more API keys do not mean more sends.
 */
export const TEST_SEND_LIMIT: RateLimitPolicy = { name: "webhook_test", by: "merchant", limit: 10, windowSeconds: 60 };

/**
 * Recovering a window of events for an endpoint (`POST webhook/endpoint/{id}/recover`, the dashboard's "Replay
 * since…"), API and dashboard alike: each call may queue up to 10,000 deliveries, so a script calling it in a loop
 * would fill the outbox. 10 an hour per merchant (100,000 deliveries at most) is plenty for recovering outages.
 */
export const RECOVER_LIMIT: RateLimitPolicy = {
  name: "webhook_recover",
  by: "merchant",
  limit: 10,
  windowSeconds: 3600,
  describe: "At most 10 recovers an hour per merchant (API and dashboard together)",
};

/**
 * Merchant sign-ups, `POST /merchant/register` and the dashboard's form alike (one name: one budget): cheap to
 * script and each costs an argon2 hash; 10 an hour per IP is plenty for people.
 */
export const REGISTER_LIMIT: RateLimitPolicy = { name: "register", by: "ip", limit: 10, windowSeconds: 3600 };

/**
 * "Forgot your password?" requests (docs/team-and-security.md, "Password reset"): each may send a mail, so per
 * client address (10 an hour) and per typed address (3 an hour, whether or not it has an account, so the limit
 * says nothing about which do): no one fills a stranger's inbox or the mail server's quota.
 */
export const RESET_REQUEST_IP_LIMIT: RateLimitPolicy = { name: "password_reset_ip", by: "ip", limit: 10, windowSeconds: 3600 };
export const RESET_REQUEST_EMAIL_LIMIT: RateLimitPolicy = { name: "password_reset_email", by: "email", limit: 3, windowSeconds: 3600 };

/**
 * The public checkout, per payer IP: the page `/pay/{id}` and its status `GET /checkout/{id}` alike (one name: one
 * budget). The page polls every 2 s (30 a minute); the rest is room for reloads. Unauthenticated, and each answer
 * reads the database, so a scraper guessing invoice ids is held to this.
 */
export const CHECKOUT_LIMIT: RateLimitPolicy = { name: "checkout", by: "ip", limit: 120, windowSeconds: 60 };

/**
 * A refund claim page's form, per payer IP, on top of the checkout budget its page loads share (docs/refunds.md):
 * a payer submits once or twice; a script trying tokens or flooding destinations is held to this.
 */
export const REFUND_CLAIM_LIMIT: RateLimitPolicy = { name: "refund-claim", by: "ip", limit: 10, windowSeconds: 600 };

/** The default per-IP policy of unauthenticated routes and of failed authentications. */
export function ipPolicy(perSecond: number): RateLimitPolicy {
  return perSecondPolicy("ip", "ip", perSecond);
}

/**
 * Every dashboard call of a signed-in user (RATE_LIMIT_PER_USER a second, the same burst): a person clicking
 * through pages stays far below it, a script or a stuck refetch loop on one session does not.
 */
export function dashboardUserPolicy(perSecond: number): RateLimitPolicy {
  return perSecondPolicy("user", "user", perSecond);
}

interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

/** Counters of one runtime: in memory, or in Redis (shared by every process) when REDIS_URL is set. */
export class RateLimits {
  private readonly limiters = new Map<string, Limiter>();
  private readonly connected: Promise<void>;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly onStoreError: (error: unknown) => void,
  ) {
    this.connected = redis ? untilReady(redis, REDIS_CONNECT_WAIT_MS) : Promise.resolve();
  }

  /**
   * Counts one request against each policy. Returns the RateLimit headers to send, after the `earlier`
   * headers of policies this request was already counted against; throws a 429 `RateLimitedError` (with
   * Retry-After and the same headers) when any policy is exhausted.
   */
  async consume(checks: RateLimitCheck[], earlier: Record<string, string> = {}): Promise<Record<string, string>> {
    if (checks.length === 0) return earlier;
    await this.connected;
    const results = await Promise.all(
      checks.map(async ({ policy, subject }) => {
        try {
          return { policy, res: await this.limiterFor(policy).consume(subject), allowed: true };
        } catch (error) {
          if (error instanceof RateLimiterRes) return { policy, res: error, allowed: false };
          // The store failed and its in-memory insurance too: fail open rather than refuse every request.
          this.onStoreError(error);
          return null;
        }
      }),
    );
    const counted = results.filter((result) => result !== null);
    const headers = joinRateLimitHeaders(earlier, rateLimitHeaders(counted));
    const refused = counted.filter((result) => !result.allowed);
    if (refused.length > 0) {
      for (const { policy } of refused) observeRateLimitRefusal(policy.name);
      const retryAfter = Math.max(...refused.map((result) => secondsUntil(result.res)));
      throw new RateLimitedError(retryAfter, headers, refused.find(({ policy }) => policy.describe)?.policy.describe);
    }
    return headers;
  }

  private limiterFor(policy: RateLimitPolicy): Limiter {
    const id = `${policy.name}:${policy.limit}/${policy.windowSeconds}:${policy.burst?.limit ?? 0}/${policy.burst?.windowSeconds ?? 0}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const main = this.store(`${policy.name}`, policy.limit, policy.windowSeconds);
      limiter = policy.burst
        ? new BurstyRateLimiter(main, this.store(`${policy.name}:burst`, policy.burst.limit, policy.burst.windowSeconds))
        : main;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private store(name: string, points: number, duration: number) {
    const keyPrefix = `mps:rl:${name}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!this.redis) return memory;
    // While Redis is unreachable each process limits on its own (the insurance) instead of failing requests.
    return new RateLimiterRedis({ storeClient: this.redis, keyPrefix, points, duration, insuranceLimiter: memory });
  }
}

function secondsUntil(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * The IETF draft fields (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy` lists each policy
 * with its quota `q` and window `w`; `RateLimit` the remaining quota `r` and seconds `t` until it resets.
 * A policy's burst allowance is listed as a policy of its own, `"<name>_burst"` (docs/decisions.md, "Rate
 * limits"), so a client can compute what it may send: a request over the per-window quota still passes while
 * the burst quota has room.
 */
function rateLimitHeaders(results: { policy: RateLimitPolicy; res: RateLimiterRes }[]): Record<string, string> {
  if (results.length === 0) return {};
  return {
    "ratelimit-policy": results.map(({ policy }) => policyItems(policy)).join(", "),
    ratelimit: results
      .map(({ policy, res }) => `"${policy.name}";r=${Math.max(0, res.remainingPoints)};t=${Math.ceil(res.msBeforeNext / 1000)}`)
      .join(", "),
  };
}

function policyItems(policy: RateLimitPolicy): string {
  const main = `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`;
  return policy.burst ? `${main}, "${policy.name}_burst";q=${policy.burst.limit};w=${policy.burst.windowSeconds}` : main;
}

function joinRateLimitHeaders(earlier: Record<string, string>, later: Record<string, string>): Record<string, string> {
  const joined: Record<string, string> = { ...earlier, ...later };
  for (const name of ["ratelimit-policy", "ratelimit"]) {
    if (earlier[name] && later[name]) joined[name] = `${earlier[name]}, ${later[name]}`;
  }
  return joined;
}

export interface RateLimitCheck {
  policy: RateLimitPolicy;
  subject: string;
}

// One set of counters per runtime: each test runtime starts from zero; the web process has one runtime.
const perRuntime = new WeakMap<Runtime, RateLimits>();

export function rateLimitsFor(runtime: Runtime): RateLimits {
  let limits = perRuntime.get(runtime);
  if (!limits) {
    limits = new RateLimits(openRateLimitRedis(runtime), (error) =>
      runtime.log.warn({ err: error }, "rate limiter failed; request let through"),
    );
    perRuntime.set(runtime, limits);
  }
  return limits;
}
