import { appendAuditRow, appendAuditRows, type AuditRowInput } from "@/server/db/sql/audit-chain";
import { newId } from "@/lib/ids";
import { actorId, type ServiceContext } from "../context";

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: string | null;
  merchantId?: string | null;
  /** Non-secret details only: changed fields as `{ changes: { field: { from, to } } }` (auditChanges). */
  details?: Record<string, unknown>;
}

/** The row an entry becomes: the actor, request, client address and User-Agent from the context. */
export function auditRowOf(ctx: ServiceContext, input: AuditEntry): AuditRowInput {
  const merchantId =
    input.merchantId !== undefined ? input.merchantId : "merchantId" in ctx.actor ? (ctx.actor.merchantId ?? null) : null;
  return {
    id: newId("audit"),
    actorType: ctx.actor.type,
    actorId: actorId(ctx.actor),
    merchantId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId ?? null,
    requestId: ctx.requestId,
    ip: ctx.client?.ip ?? null,
    userAgent: ctx.client?.userAgent ?? null,
    details: input.details ?? null,
    createdAt: ctx.now(),
  };
}

/**
 * Writes an audit row with the context's executor, so it commits or rolls back with the change, as the next link of
 * its merchant's hash chain (db/sql/audit-chain.ts). Call it last in the transaction: it holds the chain's head
 * until commit.
 */
export async function recordAudit({ ctx, input }: { ctx: ServiceContext; input: AuditEntry }) {
  await appendAuditRow(ctx.db, auditRowOf(ctx, input));
}

/** Many entries of one merchant at once (a bulk change: each row audited), chained in order. */
export async function recordAudits({ ctx, inputs }: { ctx: ServiceContext; inputs: readonly AuditEntry[] }) {
  await appendAuditRows(ctx.db, inputs.map((input) => auditRowOf(ctx, input)));
}
