import { eq } from "drizzle-orm";
import { users } from "@/server/db/schema";
import { hashPassword, verifyPassword } from "@/server/auth/passwords";
import { ServiceError, ValidationError } from "../errors";
import { validateInput } from "../validate";
import { recordAudit } from "../audit/record";
import type { ServiceContext } from "../context";
import { loginThrottle } from "./login-throttle";
import { changePasswordInput, credentialStamp, type ChangePasswordInput } from "./schemas";

/**
 * Changes the signed-in user's own password after checking the current one (failures count towards the
 * login limit). Sessions issued before the change end; the caller re-issues its own from the new stamp.
 */
export async function changePassword({ ctx, input }: { ctx: ServiceContext; input: ChangePasswordInput }) {
  const { actor } = ctx;
  if (actor.type !== "user" && actor.type !== "staff") throw new ServiceError("unauthenticated", "Sign in first.");
  const { currentPassword, newPassword } = validateInput(changePasswordInput, input);

  const [user] = await ctx.db.select().from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!user) throw new ServiceError("unauthenticated", "Sign in first.");
  const throttle = loginThrottle(ctx.env.REDIS_URL);
  await throttle.check(user.email, "session:" + user.id);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await throttle.recordFailure(user.email, "session:" + user.id);
    throw new ValidationError([{ path: "input.currentPassword", message: "is not your current password" }], "The current password is wrong.");
  }
  if (currentPassword === newPassword) {
    throw new ValidationError([{ path: "input.newPassword", message: "must differ from the current password" }]);
  }

  const passwordHash = await hashPassword(newPassword);
  await ctx.db.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
  await recordAudit({
    ctx,
    input: { action: "user.password_changed", targetType: "user", targetId: user.id, merchantId: user.merchantId },
  });
  return { stamp: credentialStamp(passwordHash) };
}
