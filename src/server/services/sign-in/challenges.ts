import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { digestToken, newOneTimeToken } from "@/server/crypto/one-time-token";
import { authChallenges, type AuthChallengeRow, type SignInNeeds } from "@/server/db/schema";
import type { ServiceContext } from "../context";

type Purpose = AuthChallengeRow["purpose"];

/** How long each step may take: a code is typed in a minute; setting up an app while signing in takes longer. */
export const CHALLENGE_LIFETIME_MS: Record<Purpose | "enrolment", number> = {
  sign_in: 5 * 60_000,
  enrolment: 15 * 60_000,
  passkey_sign_in: 5 * 60_000,
  passkey_registration: 10 * 60_000,
};

/** Wrong second-factor codes one challenge takes before it ends (the sign-in starts again from the password). */
export const MAX_CHALLENGE_FAILURES = 5;

/** Makes a challenge; returns the token the browser keeps (only its digest is stored). */
export async function createChallenge(
  ctx: ServiceContext,
  values: { purpose: Purpose; userId?: string | null; needs?: SignInNeeds; webauthnChallenge?: string },
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = newOneTimeToken();
  const lifetime = values.needs === "enrolment" ? CHALLENGE_LIFETIME_MS.enrolment : CHALLENGE_LIFETIME_MS[values.purpose];
  const row = {
    id: newId("authChallenge"),
    purpose: values.purpose,
    tokenHash: digestToken(token),
    userId: values.userId ?? null,
    needs: values.needs ?? null,
    webauthnChallenge: values.webauthnChallenge ?? null,
    expiresAt: new Date(ctx.now().getTime() + lifetime),
    createdAt: ctx.now(),
  };
  await ctx.db.insert(authChallenges).values(row);
  return { token, id: row.id, expiresAt: row.expiresAt };
}

/** The live (unused, unexpired) challenge of this purpose a token names, or null. */
export async function findLiveChallenge(ctx: ServiceContext, token: string, purpose: Purpose): Promise<AuthChallengeRow | null> {
  if (token.length === 0 || token.length > 100) return null;
  const [row] = await ctx.db
    .select()
    .from(authChallenges)
    .where(and(eq(authChallenges.tokenHash, digestToken(token)), eq(authChallenges.purpose, purpose), isNull(authChallenges.usedAt), gt(authChallenges.expiresAt, ctx.now())))
    .limit(1);
  return row ?? null;
}

/** Ends a challenge once: true for the one request that did (two racing requests cannot both complete it). */
export async function consumeChallenge(ctx: ServiceContext, id: string): Promise<boolean> {
  const used = await ctx.db
    .update(authChallenges)
    .set({ usedAt: ctx.now() })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)))
    .returning({ id: authChallenges.id });
  return used.length > 0;
}

/** Counts a wrong code against the challenge, ending it at MAX_CHALLENGE_FAILURES. */
export async function recordChallengeFailure(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.db
    .update(authChallenges)
    .set({
      failedAttempts: sql`${authChallenges.failedAttempts} + 1`,
      usedAt: sql`case when ${authChallenges.failedAttempts} + 1 >= ${MAX_CHALLENGE_FAILURES} then ${ctx.now().toISOString()}::timestamptz else null end`,
    })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)));
}

/** Moves a challenge on (the WebAuthn challenge of its next step, or what it still needs). */
export async function updateChallenge(ctx: ServiceContext, id: string, values: { webauthnChallenge?: string; needs?: SignInNeeds }): Promise<void> {
  await ctx.db.update(authChallenges).set(values).where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)));
}
