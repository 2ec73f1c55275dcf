import { and, eq, gt, isNull } from "drizzle-orm";
import { digestToken } from "@/server/crypto/one-time-token";
import { hashPassword } from "@/server/crypto/passwords";
import { passwordResets, users } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { revokeAllSessionsOfUser } from "../sessions/revoke-all-for-user";
import { failureThrottle, loginThrottle } from "../users/login-throttle";
import { validateInput } from "../validate";
import { resetPasswordInput, type ResetPasswordInput } from "./schemas";

const INVALID = "This reset link is invalid, used or expired. Ask for a new one.";

/**
 * Sets a new password from a reset link: the link is spent (one conditional UPDATE: two racing uses cannot both
 * pass), the password replaced, and every session of the user ended, in one transaction; audited. A second factor
 * stays: the next sign-in still asks for it. Unknown, used and expired links answer alike (`reset_link_invalid`)
 * and count against the client's address (FAILURE_LIMITS.reset_link).
 */
export async function resetPassword({ ctx, input }: { ctx: ServiceContext; input: ResetPasswordInput }) {
  const { token, newPassword } = validateInput(resetPasswordInput, input);
  const address = (ctx.actor.type === "anonymous" && ctx.actor.ip) || "unknown";
  const throttle = failureThrottle("reset_link", ctx.env);
  await throttle.check("links", address);
  const passwordHash = await hashPassword(newPassword);
  const now = ctx.now();
  const result = await withTransaction(ctx.db, async (tx) => {
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, digestToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId });
    if (!spent) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, spent.userId))
      .returning({ id: users.id, email: users.email, merchantId: users.merchantId });
    if (!user) return null;
    const txCtx = inTransaction(ctx, tx);
    const { revoked } = await revokeAllSessionsOfUser({ ctx: { ...txCtx, actor: { type: "system" } }, input: { userId: user.id, reason: "password_reset" } });
    await recordAudit({
      ctx: txCtx,
      input: { action: "user.password_reset", targetType: "user", targetId: user.id, merchantId: user.merchantId, details: { sessionsEnded: revoked, ip: address } },
    });
    return { user, sessionsEnded: revoked };
  });
  if (!result) {
    await throttle.recordFailure(null, address);
    throw new ServiceError("reset_link_invalid", INVALID);
  }
  // A new password is a fresh start for the account's failed-password count.
  await loginThrottle(ctx.env).recordSuccess(result.user.email);
  return { userId: result.user.id, sessionsEnded: result.sessionsEnded };
}
