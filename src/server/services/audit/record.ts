import { auditLog } from "@/server/db/schema";
import { newId } from "@/lib/ids";
import { actorId, type ServiceContext } from "../context";

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: string | null;
  merchantId?: string | null;
  /** Non-secret details only. */
  details?: Record<string, unknown>;
}

/** Writes an audit row with the context's executor, so it commits or rolls back with the change. */
export async function recordAudit({ ctx, input }: { ctx: ServiceContext; input: AuditEntry }) {
  const merchantId =
    input.merchantId !== undefined ? input.merchantId : "merchantId" in ctx.actor ? (ctx.actor.merchantId ?? null) : null;
  await ctx.db.insert(auditLog).values({
    id: newId("audit"),
    actorType: ctx.actor.type,
    actorId: actorId(ctx.actor),
    merchantId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId ?? null,
    requestId: ctx.requestId,
    details: input.details ?? null,
    createdAt: ctx.now(),
  });
}
