import { sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/** Ready means the database answers a query; the load balancer takes us out of rotation otherwise. */
export async function checkReadiness({ ctx }: { ctx: ServiceContext }) {
  try {
    await ctx.db.execute(sql`select 1`);
  } catch (error) {
    ctx.log.warn({ err: error }, "readiness check failed");
    throw new ServiceError("service_unavailable", "The database does not answer.", {
      headers: { "retry-after": "5" },
    });
  }
  return { status: "ready" as const };
}
