import { sql } from "drizzle-orm";
import type { Executor } from "../types";

/** NOTIFY `channel`, sent by PostgreSQL when the caller's transaction commits (one notification per transaction). */
export async function notifyAtCommit(tx: Executor, channel: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, '')`);
}
