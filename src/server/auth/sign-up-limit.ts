import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { RateLimitedError } from "@/server/services/errors";

/** Dashboard sign-ups per client address: 10 an hour, like the REST register endpoint's stricter limit. */
const limiter = new RateLimiterMemory({ keyPrefix: "dashboard_sign_up", points: 10, duration: 60 * 60 });

export async function consumeSignUpAttempt(address: string): Promise<void> {
  try {
    await limiter.consume(address);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}
