import { and, eq } from "drizzle-orm";
import { memberships, merchants, users } from "@/server/db/schema";
import { dummyPasswordHash, verifyPassword } from "@/server/crypto/passwords";
import { recordAudit } from "../audit/record";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { loginThrottle } from "./login-throttle";
import { loginInput, toSessionUser, type LoginInput } from "./schemas";

const WRONG = "The email or the password is wrong.";

/**
 * Checks a dashboard login's email and password: the first step of signing in (services/sign-in/begin.ts goes on
 * to the second factor and the session). One answer for an unknown email and a wrong password (and the same
 * argon2 work for both), so neither the message nor the timing says which accounts exist. A wrong password for an
 * existing account is audit-logged (`user.sign_in_failed`, in the merchant's log); an unknown email is not, since
 * it names no account.
 */
export async function authenticateUser({ ctx, input }: { ctx: ServiceContext; input: LoginInput }) {
  const parsed = loginInput.safeParse(input);
  if (!parsed.success) throw new ServiceError("invalid_credentials", WRONG);
  const { email, password } = parsed.data;
  const address = (ctx.actor.type === "anonymous" && ctx.actor.ip) || "unknown";
  const throttle = loginThrottle(ctx.env);
  await throttle.check(email, address);

  const [row] = await ctx.db
    .select({ user: users, merchantStatus: merchants.status, memberRole: memberships.role })
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .leftJoin(memberships, and(eq(memberships.merchantId, users.merchantId), eq(memberships.userId, users.id)))
    .where(eq(users.email, email))
    .limit(1);
  const valid = await verifyPassword(row?.user.passwordHash ?? (await dummyPasswordHash()), password);
  if (!row || !valid) {
    await throttle.recordFailure(email, address);
    if (row) {
      await recordAudit({
        ctx,
        input: { action: "user.sign_in_failed", targetType: "user", targetId: row.user.id, merchantId: row.user.merchantId, details: { step: "password", ip: address } },
      });
    }
    throw new ServiceError("invalid_credentials", WRONG);
  }
  await throttle.recordSuccess(email);
  if (row.user.role === "merchant" && row.merchantStatus !== "active") {
    throw new ServiceError("forbidden", "This merchant account is suspended. Contact support.");
  }
  const user = toSessionUser(row.user, { merchantId: row.user.merchantId, role: row.memberRole });
  if (!user) throw new ServiceError("forbidden", "You are no longer a member of this merchant's team.");
  return { user };
}
