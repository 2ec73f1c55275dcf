import { ping } from "@/server/db/sql/ping";
import { DATABASE_RETRY_AFTER_SECONDS } from "@/server/db/unavailable";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/** How long the database may take to answer `select 1` before this process counts as not ready. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * Ready means the database answers a query through the pool, promptly; the load balancer takes us out of
 * rotation otherwise. A pool whose connections are all stuck or dead never answers: the deadline turns that
 * into a 503 too, instead of a readiness probe that hangs (or, worse, answers 200 from a cached state).
 */
export async function checkReadiness({ ctx }: { ctx: ServiceContext }) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
  });
  try {
    await Promise.race([ping(ctx.db), deadline]);
  } catch (error) {
    ctx.log.warn({ err: error }, "readiness check failed");
    throw new ServiceError("service_unavailable", "The database does not answer.", {
      headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  } finally {
    clearTimeout(timer);
  }
  return { status: "ready" as const };
}
