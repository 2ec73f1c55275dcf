import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { totpFactors } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { matchingTotpStep } from "./totp-codes";
import { openTotpSecret } from "./totp-secret";

export type TotpCheck = "accepted" | "wrong" | "replayed";

/**
 * Checks a code against the user's confirmed authenticator and, if it is right, records its time step, so the
 * same code (or an older one) is refused from then on: one conditional UPDATE, so two requests racing with one
 * code cannot both pass.
 */
export async function acceptTotpCode(ctx: ServiceContext, userId: string, code: string): Promise<TotpCheck> {
  const [factor] = await ctx.db
    .select()
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
    .limit(1);
  if (!factor) return "wrong";
  const step = matchingTotpStep(openTotpSecret(ctx, factor.secretSealed), code, ctx.now());
  if (step === null) return "wrong";
  const recorded = await ctx.db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(and(eq(totpFactors.userId, userId), or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step))))
    .returning({ userId: totpFactors.userId });
  return recorded.length > 0 ? "accepted" : "replayed";
}
