import { and, eq } from "drizzle-orm";
import { memberships, merchants, sessions, users } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { toSessionUser } from "../users/schemas";
import type { ResolvedSession } from "./schemas";

/**
 * The session a cookie names, if it may still be used: not revoked, not expired, its user still there and, for a
 * merchant's user, the merchant the session acts for active and the user still a member of its team. Null
 * otherwise. One indexed read (the session, its user, the merchant, the membership's role); the dashboard reads it
 * through a short per-process cache (auth/session-lookup.ts), so a role change is seen within that cache's TTL.
 */
export async function resolveSession({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<ResolvedSession | null> {
  const [row] = await ctx.db
    .select({ session: sessions, user: users, merchantStatus: merchants.status, memberRole: memberships.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(merchants, eq(merchants.id, sessions.merchantId))
    .leftJoin(memberships, and(eq(memberships.merchantId, sessions.merchantId), eq(memberships.userId, sessions.userId)))
    .where(eq(sessions.id, input.id))
    .limit(1);
  if (!row || row.session.revokedAt !== null || row.session.expiresAt <= ctx.now()) return null;
  if (row.user.role === "merchant" && row.merchantStatus !== "active") return null;
  const user = toSessionUser(row.user, { merchantId: row.session.merchantId, role: row.memberRole });
  if (!user) return null;
  const { viewAsMerchantId, viewAsUntil } = row.session;
  // A staff session's view-as grant while it lasts (services/staff/view-as.ts).
  if (user.role === "staff" && viewAsMerchantId && viewAsUntil && viewAsUntil > ctx.now()) user.viewAs = { merchantId: viewAsMerchantId, until: viewAsUntil.toISOString() };
  return { id: row.session.id, user, lastSeenAt: row.session.lastSeenAt, expiresAt: row.session.expiresAt };
}
