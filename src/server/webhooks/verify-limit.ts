import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Runtime } from "@/server/runtime";
import { RateLimitedError } from "@/server/services/errors";

/**
 * A stricter limit for `POST /webhook/verify` than the API's general one: the endpoint answers whether a
 * signature is valid, so unlimited calls would let a stolen API key probe signatures (or burn CPU on HMACs).
 * 60 checks a minute per merchant is plenty for debugging a receiver.
 *
 * INTERIM: per process, in memory. When the shared rate limits of the merchants work land (route-level
 * `rateLimit` policies, Redis-backed), this becomes `rateLimit: VERIFY_POLICY` on the route.
 */
export const VERIFY_POLICY = { name: "webhook_verify", by: "api_key", limit: 60, windowSeconds: 60 } as const;

const perRuntime = new WeakMap<Runtime, RateLimiterMemory>();

export async function limitWebhookVerify(runtime: Runtime, merchantId: string): Promise<void> {
  let limiter = perRuntime.get(runtime);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: VERIFY_POLICY.name, points: VERIFY_POLICY.limit, duration: VERIFY_POLICY.windowSeconds });
    perRuntime.set(runtime, limiter);
  }
  try {
    await limiter.consume(merchantId);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw new RateLimitedError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
  }
}
