import { eq } from "drizzle-orm";
import { users } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { hashPassword, verifyPassword } from "@/server/crypto/passwords";
import { ServiceError, ValidationError } from "../errors";
import { validateInput } from "../validate";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";
import { revokeAllSessionsOfUser } from "../sessions/revoke-all-for-user";
import { loginThrottle } from "./login-throttle";
import { changePasswordInput, type ChangePasswordInput } from "./schemas";

/**
 * Changes the signed-in user's own password after checking the current one (failures count towards the
 * login limit). Every session of the user ends with it, in the same transaction, the one that asked included: a
 * password is changed because a session may be in someone else's hands, and a copy of this session's cookie is as
 * good as the session. The dashboard signs the tab that made the change in again, as a new session.
 */
export async function changePassword({ ctx, input }: { ctx: ServiceContext; input: ChangePasswordInput }) {
  const { actor } = ctx;
  if (actor.type !== "user" && actor.type !== "staff") throw new ServiceError("unauthenticated", "Sign in first.");
  const { currentPassword, newPassword } = validateInput(changePasswordInput, input);

  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!user) throw new ServiceError("unauthenticated", "Sign in first.");
  const throttle = loginThrottle(ctx.env);
  await throttle.check(user.email, "session:" + user.id);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await throttle.recordFailure(user.email, "session:" + user.id);
    throw new ValidationError([{ path: "input.currentPassword", message: "is not your current password" }], "The current password is wrong.");
  }
  if (currentPassword === newPassword) {
    throw new ValidationError([{ path: "input.newPassword", message: "must differ from the current password" }]);
  }

  const passwordHash = await hashPassword(newPassword);
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    await tx.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
    const { revoked } = await revokeAllSessionsOfUser({
      ctx: txCtx,
      input: { userId: user.id, reason: "password_changed" },
    });
    await recordAudit({
      ctx: txCtx,
      input: { action: "user.password_changed", targetType: "user", targetId: user.id, merchantId: user.merchantId, details: { sessionsEnded: revoked } },
    });
    return { sessionsEnded: revoked };
  });
}
