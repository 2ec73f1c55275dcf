import { rateLimitsFor, REGISTER_LIMIT } from "@/server/rate-limit/limits";
import type { Runtime } from "@/server/runtime";

/**
 * Dashboard sign-ups count against the same per-address limit as `POST /merchant/register` (the same named
 * counters, in memory or Redis): the form is no way around the API's limit. Throws a 429 RateLimitedError.
 */
export async function consumeSignUpAttempt(runtime: Runtime, address: string): Promise<void> {
  await rateLimitsFor(runtime).consume([{ policy: REGISTER_LIMIT, subject: address }]);
}
