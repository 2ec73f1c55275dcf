import { RESET_REQUEST_EMAIL_LIMIT, RESET_REQUEST_IP_LIMIT, rateLimitsFor } from "@/server/rate-limit/limits";
import type { Runtime } from "@/server/runtime";

/**
 * Counts a password reset request against the per-address and per-email limits (the same named counters in every
 * process when REDIS_URL is set). Throws a 429 RateLimitedError. The email is lower-cased and trimmed as the
 * service reads it, so case changes buy no more tries.
 */
export async function consumeResetRequest(runtime: Runtime, address: string, email: string): Promise<void> {
  await rateLimitsFor(runtime).consume([
    { policy: RESET_REQUEST_IP_LIMIT, subject: address },
    { policy: RESET_REQUEST_EMAIL_LIMIT, subject: email.trim().toLowerCase() },
  ]);
}
