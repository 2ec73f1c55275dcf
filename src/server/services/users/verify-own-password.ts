import { eq } from "drizzle-orm";
import { users } from "@/server/db/schema";
import { verifyPassword } from "@/server/crypto/passwords";
import type { ServiceContext } from "../context";
import { ServiceError, ValidationError } from "../errors";
import { loginThrottle } from "./login-throttle";

/**
 * Checks the signed-in user's password again before a change that weakens their sign-in (removing a second
 * factor). Failures count towards the login limit, as a wrong password at sign-in does. Returns the user's row.
 */
export async function verifyOwnPassword(ctx: ServiceContext, userId: string, password: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new ServiceError("unauthenticated", "Sign in first.");
  const throttle = loginThrottle(ctx.env);
  await throttle.check(user.email, "session:" + user.id);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await throttle.recordFailure(user.email, "session:" + user.id);
    throw new ValidationError([{ path: "input.password", message: "is not your current password" }], "The password is wrong.");
  }
  return user;
}
