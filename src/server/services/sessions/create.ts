import { newId } from "@/lib/ids";
import { sessions } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { MAX_IP, MAX_USER_AGENT, SESSION_LIFETIME_MS } from "./schemas";

/**
 * Starts a dashboard session for the user the context acts for (who has just proven their password): the row
 * the session cookie will name. `ip` and `userAgent` describe the device, for the user's list of sessions. A
 * merchant's user's session acts for the merchant they signed in to (the switcher changes it later).
 */
export async function createSession({ ctx, input }: { ctx: ServiceContext; input: { ip?: string | null; userAgent?: string | null } }) {
  const { actor } = ctx;
  if (actor.type !== "user" && actor.type !== "staff") throw new ServiceError("unauthenticated", "Sign in first.");
  const now = ctx.now();
  const row = {
    id: newId("session"),
    userId: actor.userId,
    merchantId: actor.type === "user" ? actor.merchantId : null,
    createdAt: now,
    lastSeenAt: now,
    ip: input.ip?.slice(0, MAX_IP) ?? null,
    userAgent: input.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  };
  await ctx.db.insert(sessions).values(row);
  return { id: row.id, expiresAt: row.expiresAt };
}
