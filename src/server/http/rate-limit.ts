import type { Runtime } from "@/server/runtime";
import type { Actor } from "@/server/services/context";
import { apiKeyPolicy, ipPolicy, type RateLimitCheck, type RateLimitPolicy } from "@/server/rate-limit/limits";

/** Which of the rate-limit policies (server/rate-limit) a REST request is counted against, and as whom. */

interface LimitedRoute {
  rateLimit?: RateLimitPolicy;
  rateLimitWhen?: (body: never) => boolean;
}

function subjectOf(policy: RateLimitPolicy, actor: Actor, ip: string): string {
  if (actor.type !== "api_key" || policy.by === "ip" || policy.by === "user") return ip;
  return policy.by === "merchant" ? actor.merchantId : actor.keyId;
}

/**
 * The policies a request is counted against before its body is read, with the subject of each: the default
 * one, and the route's own unless it depends on the body (`rateLimitWhen`, see `bodyRateLimitChecks`).
 */
export function rateLimitChecks(runtime: Runtime, route: LimitedRoute, actor: Actor, ip: string): RateLimitCheck[] {
  const base = actor.type === "api_key" ? apiKeyPolicy(runtime.env.RATE_LIMIT_PER_KEY) : ipPolicy(runtime.env.RATE_LIMIT_PER_IP);
  const policies = route.rateLimit && !route.rateLimitWhen ? [base, route.rateLimit] : [base];
  return policies.map((policy) => ({ policy, subject: subjectOf(policy, actor, ip) }));
}

/** The route's own policy when it applies only to some bodies, for a validated body it applies to. */
export function bodyRateLimitChecks(route: LimitedRoute, actor: Actor, ip: string, body: unknown): RateLimitCheck[] {
  if (!route.rateLimit || !route.rateLimitWhen?.(body as never)) return [];
  return [{ policy: route.rateLimit, subject: subjectOf(route.rateLimit, actor, ip) }];
}

