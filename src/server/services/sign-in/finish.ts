import { and, eq } from "drizzle-orm";
import { memberships, merchants, users } from "@/server/db/schema";
import { recordAudit } from "../audit/record";
import type { Actor, ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { toSessionUser } from "../users/schemas";
import type { SessionUser } from "../users/session-user";

export type SignInMethod = "password" | "totp" | "recovery_code" | "passkey";

/** Who a user acts as once signed in (for verbs run on their behalf during the sign-in itself). */
export function actorOfUser(user: SessionUser): Extract<Actor, { type: "user" | "staff" }> {
  return user.role === "staff" ? { type: "staff", userId: user.id } : { type: "user", userId: user.id, merchantId: user.merchantId! };
}

/** The user a challenge names, as they are now (with their role in the merchant they sign in to); null when gone. */
export async function currentUser(ctx: ServiceContext, userId: string): Promise<{ user: SessionUser; merchantActive: boolean } | null> {
  const [row] = await ctx.db
    .select({ user: users, merchantStatus: merchants.status, memberRole: memberships.role })
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .leftJoin(memberships, and(eq(memberships.merchantId, users.merchantId), eq(memberships.userId, users.id)))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const user = toSessionUser(row.user, { merchantId: row.user.merchantId, role: row.memberRole });
  // Removed from the team since the sign-in began: as if gone.
  if (!user) return null;
  return { user, merchantActive: row.user.role !== "merchant" || row.merchantStatus === "active" };
}

/** The last step of every sign-in: the merchant still active, the login time and the audit row (`user.signed_in`). */
export async function finishSignIn(ctx: ServiceContext, userId: string, method: SignInMethod): Promise<SessionUser> {
  const current = await currentUser(ctx, userId);
  if (!current) throw new ServiceError("sign_in_expired", "Sign in again.");
  if (!current.merchantActive) throw new ServiceError("forbidden", "This merchant account is suspended. Contact support.");
  const { user } = current;
  await ctx.db.update(users).set({ lastLoginAt: ctx.now() }).where(eq(users.id, user.id));
  const ip = ctx.actor.type === "anonymous" ? ctx.actor.ip : undefined;
  await recordAudit({
    ctx: { ...ctx, actor: actorOfUser(user) },
    input: { action: "user.signed_in", targetType: "user", targetId: user.id, merchantId: user.merchantId, details: { method, ...(ip ? { ip } : {}) } },
  });
  return user;
}
