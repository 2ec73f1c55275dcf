import { and, asc, eq, inArray, lte, or } from "drizzle-orm";
import { webhookDeliveries, type WebhookDeliveryRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";

/** A delivery this worker holds until `leaseExpiresAt`; that value doubles as the fencing token. */
export type ClaimedDelivery = WebhookDeliveryRow & { leaseExpiresAt: Date; nextAttemptAt: Date | null };

/**
 * Claims up to `limit` due deliveries: pending ones whose time has come, and `delivering` ones whose lease
 * ran out (their worker died mid-attempt). FOR UPDATE SKIP LOCKED lets any number of workers run this at
 * once without waiting on each other or claiming the same row; the lease makes the claim outlive the
 * statement, and expire if the claimant does.
 */
export async function claimDueDeliveries(
  db: Executor,
  input: { limit: number; leaseMs: number; now: Date },
): Promise<ClaimedDelivery[]> {
  const { now } = input;
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      or(
        and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)),
        and(eq(webhookDeliveries.status, "delivering"), lte(webhookDeliveries.leaseExpiresAt, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(input.limit)
    .for("update", { skipLocked: true });
  const leaseExpiresAt = new Date(now.getTime() + input.leaseMs);
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: "delivering", leaseExpiresAt, updatedAt: now })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  return rows.map((row) => ({ ...row, leaseExpiresAt }));
}
