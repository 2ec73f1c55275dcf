import { sql } from "drizzle-orm";
import type { Executor } from "../types";

/** The cheapest statement that proves the database answers through the pool (readiness). */
export async function ping(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}
