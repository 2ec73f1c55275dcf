import { eq } from "drizzle-orm";
import { merchants, users } from "@/server/db/schema";
import type { SessionUser } from "@/server/auth/session";
import type { ServiceContext } from "../context";
import { credentialStamp, toSessionUser } from "./schemas";

/**
 * The user a session token names, as they are now: null when the user is gone, their password changed
 * since the token was issued, or their merchant is suspended. Role and merchant come from the database.
 */
export async function resolveSessionUser({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; stamp: string };
}): Promise<SessionUser | null> {
  const [row] = await ctx.db
    .select({ user: users, merchantStatus: merchants.status })
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .where(eq(users.id, input.userId))
    .limit(1);
  if (!row || credentialStamp(row.user.passwordHash) !== input.stamp) return null;
  if (row.user.role === "merchant" && row.merchantStatus !== "active") return null;
  return toSessionUser(row.user);
}
