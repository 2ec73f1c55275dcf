import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { merchants, sessions } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireStaff, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { validateInput } from "../validate";

/** How long a "view as merchant" grant lasts at most (docs/team-and-security.md, "Viewing as a merchant": at most one hour). */
export const VIEW_AS_MAX_MS = 60 * 60 * 1000;

export const startViewAsInput = z.strictObject({
  merchantId: z.string().min(1).max(64),
  reason: z.string().trim().min(3, "say why you open this merchant's dashboard (a ticket, a question)").max(500),
});
export type StartViewAsInput = z.input<typeof startViewAsInput>;

export const viewAsPageInput = z.strictObject({ path: z.string().min(1).max(300).startsWith("/dashboard") });

/** The staff session acting; a staff actor without one (a script) cannot hold a grant. */
function staffSession(ctx: ServiceContext): { userId: string; sessionId: string } {
  const staff = requireStaff(ctx);
  if (!staff.sessionId) throw new ServiceError("unauthenticated", "Viewing as a merchant needs a signed-in staff session.");
  return { userId: staff.userId, sessionId: staff.sessionId };
}

/**
 * Support staff open a merchant's dashboard read-only (docs/team-and-security.md, "Viewing as a merchant"): the grant
 * is written on the staff member's session row (merchant, at most an hour, the reason) and audited in the merchant's
 * log. Needs `staff.view_as` (the tRPC procedure's). A new grant replaces the session's earlier one.
 */
export async function startViewAs({ ctx, input }: { ctx: ServiceContext; input: StartViewAsInput }) {
  const { userId, sessionId } = staffSession(ctx);
  const { merchantId, reason } = validateInput(startViewAsInput, input);
  const until = new Date(ctx.now().getTime() + VIEW_AS_MAX_MS);
  return withTransaction(ctx.db, async (tx) => {
    const [merchant] = await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId));
    if (!merchant) throw new NotFoundError("merchant");
    const [granted] = await tx
      .update(sessions)
      .set({ viewAsMerchantId: merchantId, viewAsUntil: until, viewAsReason: reason })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (!granted) throw new ServiceError("unauthenticated", "Your session has ended. Sign in again.");
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "staff.view_as_started", targetType: "merchant", targetId: merchantId, merchantId, details: { reason, until: until.toISOString() } },
    });
    return { merchantId, until: until.toISOString() };
  });
}

/** Ends the session's grant ("Stop"); audited in the merchant's log when there was one. */
export async function stopViewAs({ ctx }: { ctx: ServiceContext }): Promise<void> {
  const { userId, sessionId } = staffSession(ctx);
  await withTransaction(ctx.db, async (tx) => {
    const [before] = await tx
      .select({ merchantId: sessions.viewAsMerchantId, until: sessions.viewAsUntil })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
      .for("update");
    if (!before?.merchantId) return;
    await tx.update(sessions).set({ viewAsMerchantId: null, viewAsUntil: null, viewAsReason: null }).where(eq(sessions.id, sessionId));
    const expired = before.until !== null && before.until <= ctx.now();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "staff.view_as_ended", targetType: "merchant", targetId: before.merchantId, merchantId: before.merchantId, details: { expired } },
    });
  });
}

/**
 * A page the staff member opened while viewing as the merchant, in that merchant's audit log. The grant is read from
 * the session row, not from input: no grant (or an expired one), nothing is written and the caller is told.
 */
export async function recordViewAsPage({ ctx, input }: { ctx: ServiceContext; input: { path: string } }): Promise<{ recorded: boolean }> {
  const { userId, sessionId } = staffSession(ctx);
  const { path } = validateInput(viewAsPageInput, input);
  const [grant] = await ctx.db
    .select({ merchantId: sessions.viewAsMerchantId, until: sessions.viewAsUntil })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  if (!grant?.merchantId || !grant.until || grant.until <= ctx.now()) return { recorded: false };
  await recordAudit({ ctx, input: { action: "staff.view_as_page_viewed", targetType: "merchant", targetId: grant.merchantId, merchantId: grant.merchantId, details: { path } } });
  return { recorded: true };
}
