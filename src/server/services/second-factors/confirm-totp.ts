import { and, eq, isNull } from "drizzle-orm";
import { totpFactors } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSelf, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { failureThrottle } from "../users/login-throttle";
import { validateInput } from "../validate";
import { replaceRecoveryCodes } from "./recovery-codes";
import { totpCodeInput, type TotpCodeInput } from "./schemas";
import { matchingTotpStep } from "./totp-codes";
import { openTotpSecret } from "./totp-secret";

/**
 * Confirms the authenticator being set up with a code from it: from then on sign-in asks for a code. Makes ten
 * new recovery codes (stored hashed) and returns them, to be shown this once. Wrong codes count towards the
 * second-factor limit of the account.
 */
export async function confirmTotp({ ctx, input }: { ctx: ServiceContext; input: TotpCodeInput }) {
  const { userId } = requireSelf(ctx);
  const { code } = validateInput(totpCodeInput, input);
  const throttle = failureThrottle("second_factor", ctx.env);
  await throttle.check(userId, "user:" + userId);
  const [factor] = await ctx.db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
  if (!factor) throw new ServiceError("validation_failed", "Start setting up the authenticator app first.");
  if (factor.confirmedAt) throw new ServiceError("second_factor_exists", "An authenticator app is already set up.");
  const step = matchingTotpStep(openTotpSecret(ctx, factor.secretSealed), code, ctx.now());
  if (step === null) {
    await throttle.recordFailure(userId, "user:" + userId);
    throw new ServiceError("invalid_second_factor", "That code is not right: type the current code from the app.", {
      errors: [{ path: "input.code", message: "is not the app's current code" }],
    });
  }
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const confirmed = await tx
      .update(totpFactors)
      .set({ confirmedAt: ctx.now(), lastUsedStep: step })
      .where(and(eq(totpFactors.userId, userId), isNull(totpFactors.confirmedAt), eq(totpFactors.secretSealed, factor.secretSealed)))
      .returning({ userId: totpFactors.userId });
    // Set up again (a new secret) or confirmed by a racing request meanwhile: this code was for a secret gone.
    if (confirmed.length === 0) throw new ServiceError("second_factor_exists", "The authenticator changed meanwhile: start again.");
    const recoveryCodes = await replaceRecoveryCodes(txCtx, userId);
    await recordAudit({ ctx: txCtx, input: { action: "user.totp_enabled", targetType: "user", targetId: userId } });
    await throttle.recordSuccess(userId);
    return { recoveryCodes };
  });
}
