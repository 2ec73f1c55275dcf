import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from "@/env";
import { parseDurationList } from "@/lib/duration";
import { firstAttemptDelay, honoursRetryAfter, nextRetryDelay, parseRetryAfter } from "./schedule";

const schedule = parseDurationList(DEFAULT_WEBHOOK_RETRY_SCHEDULE);
const S = 1_000;
const M = 60 * S;
const H = 60 * M;

describe("retry schedule", () => {
  it("the default is the Standard Webhooks one: ten attempts over about three days", () => {
    expect(schedule).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    const total = schedule.reduce((sum, delay) => sum + delay, 0);
    expect(total / H).toBeCloseTo(75.6, 1);
  });

  it("attempts first right away", () => {
    expect(firstAttemptDelay(schedule)).toBe(0);
    expect(firstAttemptDelay([250, 500])).toBe(250);
  });

  it("follows the schedule with the jitter at its centre", () => {
    const centre = () => 0.5;
    expect(nextRetryDelay({ schedule, attemptsMade: 1, random: centre })).toBe(5 * S);
    expect(nextRetryDelay({ schedule, attemptsMade: 2, random: centre })).toBe(5 * M);
    expect(nextRetryDelay({ schedule, attemptsMade: 9, random: centre })).toBe(24 * H);
  });

  it("is exhausted after the last attempt", () => {
    expect(nextRetryDelay({ schedule, attemptsMade: 10 })).toBeNull();
    expect(nextRetryDelay({ schedule: [0], attemptsMade: 1 })).toBeNull();
  });

  it("keeps every delay within ±20 % of the scheduled one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attemptsMade, r) => {
        const scheduled = schedule[attemptsMade]!;
        const delay = nextRetryDelay({ schedule, attemptsMade, random: () => r })!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(scheduled * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.ceil(scheduled * 1.2));
      }),
    );
  });

  it("spreads retries out rather than all at one instant", () => {
    const delays = new Set(Array.from({ length: 50 }, () => nextRetryDelay({ schedule, attemptsMade: 3 })));
    expect(delays.size).toBeGreaterThan(40);
  });

  it("honours Retry-After within [scheduled, 2 × scheduled]", () => {
    const centre = () => 0.5;
    // 5 min scheduled: asking for 7 min is granted, for 1 s is raised to 5 min, for a day is capped at 10 min.
    expect(nextRetryDelay({ schedule, attemptsMade: 2, random: centre, retryAfterMs: 7 * M })).toBe(7 * M);
    expect(nextRetryDelay({ schedule, attemptsMade: 2, random: centre, retryAfterMs: 1 * S })).toBe(5 * M);
    expect(nextRetryDelay({ schedule, attemptsMade: 2, random: centre, retryAfterMs: 24 * H })).toBe(10 * M);
    // And never revives an exhausted schedule.
    expect(nextRetryDelay({ schedule, attemptsMade: 10, retryAfterMs: 1 * S })).toBeNull();
  });

  it("honours Retry-After on 429 and 503 only", () => {
    expect(honoursRetryAfter(429)).toBe(true);
    expect(honoursRetryAfter(503)).toBe(true);
    expect(honoursRetryAfter(500)).toBe(false);
    expect(honoursRetryAfter(null)).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  it.each([
    ["120", 120_000],
    ["0", 0],
    [" 30 ", 30_000],
    ["Sun, 22 Nov 2026 12:05:00 GMT", 5 * M],
    ["Sun, 22 Nov 2026 11:00:00 GMT", 0], // a past date: now
  ])("%s → %s ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([[null], [undefined], [""], ["-5"], ["1.5"], ["soon"], ["2026-11-22T12:05:00Z"]])("%s → null", (value) => {
    expect(parseRetryAfter(value, now)).toBeNull();
  });
});
