import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSelf, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { revokeAllSessionsOfUser } from "./revoke-all-for-user";
import { revokeSession } from "./revoke";

/**
 * "Sign out" one of the signed-in user's sessions from their list (another device; the current one is signing
 * out). Another user's session id answers as an unknown one. Audited (`session.revoked`). The adapter then
 * forgets it in its own process (auth/session-lookup.ts); every other process refuses it within the cache's TTL.
 */
export async function endOwnSession({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const { userId, sessionId } = requireSelf(ctx);
  const reason = input.id === sessionId ? "signed_out" : "signed_out_elsewhere";
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const { revoked } = await revokeSession({ ctx: txCtx, input: { id: input.id, reason } });
    if (!revoked) throw new NotFoundError("session");
    await recordAudit({ ctx: txCtx, input: { action: "session.revoked", targetType: "session", targetId: input.id, details: { reason } } });
    return { revoked: 1, userId };
  });
}

/** "Sign out all other sessions": every live session of the user but the one asking; audited (`session.revoked_others`). */
export async function endOtherOwnSessions({ ctx }: { ctx: ServiceContext }) {
  const { userId, sessionId } = requireSelf(ctx);
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const { revoked } = await revokeAllSessionsOfUser({ ctx: txCtx, input: { userId, reason: "signed_out_elsewhere", keepSessionId: sessionId } });
    await recordAudit({ ctx: txCtx, input: { action: "session.revoked_others", targetType: "user", targetId: userId, details: { sessionsEnded: revoked } } });
    return { revoked, userId };
  });
}
