import { eq } from "drizzle-orm";
import { merchants, users } from "@/server/db/schema";
import { dummyPasswordHash, verifyPassword } from "@/server/auth/passwords";
import { recordAudit } from "../audit/record";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { loginThrottle } from "./login-throttle";
import { credentialStamp, loginInput, toSessionUser, type LoginInput } from "./schemas";

const WRONG = "The email or the password is wrong.";

/**
 * Checks a dashboard login. One answer for an unknown email and a wrong password (and the same argon2
 * work for both), so neither the message nor the timing says which accounts exist.
 */
export async function authenticateUser({ ctx, input }: { ctx: ServiceContext; input: LoginInput }) {
  const parsed = loginInput.safeParse(input);
  if (!parsed.success) throw new ServiceError("invalid_credentials", WRONG);
  const { email, password } = parsed.data;
  const address = (ctx.actor.type === "anonymous" && ctx.actor.ip) || "unknown";
  const throttle = loginThrottle(ctx.env.REDIS_URL);
  await throttle.check(email, address);

  const [row] = await ctx.db
    .select({ user: users, merchantStatus: merchants.status })
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .where(eq(users.email, email))
    .limit(1);
  const valid = await verifyPassword(row?.user.passwordHash ?? (await dummyPasswordHash()), password);
  if (!row || !valid) {
    await throttle.recordFailure(email, address);
    throw new ServiceError("invalid_credentials", WRONG);
  }
  await throttle.recordSuccess(email);
  if (row.user.role === "merchant" && row.merchantStatus !== "active") {
    throw new ServiceError("forbidden", "This merchant account is suspended. Contact support.");
  }

  const user = toSessionUser(row.user);
  await ctx.db.update(users).set({ lastLoginAt: ctx.now() }).where(eq(users.id, user.id));
  await recordAudit({
    ctx: { ...ctx, actor: user.role === "staff" ? { type: "staff", userId: user.id } : { type: "user", userId: user.id, merchantId: user.merchantId! } },
    input: { action: "user.signed_in", targetType: "user", targetId: user.id, merchantId: user.merchantId },
  });
  return { user, stamp: credentialStamp(row.user.passwordHash) };
}
