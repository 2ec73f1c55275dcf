import { Redis } from "ioredis";
import type { Runtime } from "@/server/runtime";

/**
 * The first requests of a process wait (once, briefly) for the Redis connection, so they are counted in
 * the shared store rather than only in this process's insurance counters.
 */
export const REDIS_CONNECT_WAIT_MS = 1_000;

export function untilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once("ready", done);
  });
}

/** The runtime's Redis connection for rate-limit counters (REDIS_URL), closed with the runtime. */
export function openRateLimitRedis(runtime: Runtime): Redis | undefined {
  const url = runtime.env.REDIS_URL;
  if (!url) return undefined;
  // No offline queue: while disconnected, commands fail at once and the in-memory insurance answers.
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let reported = false;
  redis.on("error", (error) => {
    if (!reported) runtime.log.warn({ err: error }, "Redis for rate limits unavailable; limiting per process");
    reported = true;
  });
  redis.on("ready", () => {
    reported = false;
  });
  runtime.onClose(async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}
