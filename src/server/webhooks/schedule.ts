/**
 * The retry schedule. `schedule[i]` is the delay before attempt i + 1, counted from the previous attempt
 * (`schedule[0]` from the event, normally 0 = now); when the last attempt fails the delivery is `failed`.
 * Delays get ±20 % jitter so that a receiver coming back after an outage is not hit by every retry at once.
 */

export const JITTER = 0.2;

/** The delay before the first attempt (no jitter: "now" should mean now). */
export function firstAttemptDelay(schedule: readonly number[]): number {
  return schedule[0] ?? 0;
}

export interface RetryInput {
  schedule: readonly number[];
  /** Attempts made so far, including the one that just failed. */
  attemptsMade: number;
  /** What the receiver asked for with `Retry-After` (ms from now), if anything. */
  retryAfterMs?: number | null;
  /** Uniform in [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

/** Milliseconds until the next attempt, or null when the schedule is exhausted. */
export function nextRetryDelay({ schedule, attemptsMade, retryAfterMs, random = Math.random }: RetryInput): number | null {
  const scheduled = schedule[attemptsMade];
  if (scheduled === undefined) return null;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterMs === undefined || retryAfterMs === null) return jittered;
  // Honour the receiver's wish, but neither sooner than planned (it must not speed us up into a retry storm)
  // nor more than twice as late (it must not park a delivery for days).
  return Math.min(Math.max(retryAfterMs, jittered), 2 * jittered);
}

/** Statuses whose `Retry-After` is honoured (docs/webhooks.md, "Delivery, retries and failure"). */
export function honoursRetryAfter(status: number | null | undefined): boolean {
  return status === 429 || status === 503;
}

/** `Retry-After` as delta-seconds or an HTTP date → ms from `now`; null when absent or unparseable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates always name the weekday and GMT; Date.parse alone would accept far looser text.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
