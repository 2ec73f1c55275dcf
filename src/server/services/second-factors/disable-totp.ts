import { eq } from "drizzle-orm";
import { recoveryCodes, totpFactors } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSelf, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { verifyOwnPassword } from "../users/verify-own-password";
import { validateInput } from "../validate";
import { secondFactorState } from "./policy";
import { removeFactorInput } from "./schemas";

/**
 * Removes the signed-in user's authenticator app and its recovery codes, after their password. Refused when it
 * is the last second factor of a user who must have one (`second_factor_required`).
 */
export async function disableTotp({ ctx, input }: { ctx: ServiceContext; input: { password: string } }) {
  const { userId } = requireSelf(ctx);
  const { password } = validateInput(removeFactorInput, input);
  await verifyOwnPassword(ctx, userId, password);
  const state = await secondFactorState(ctx, userId);
  if (!state.totp) throw new ServiceError("not_found", "No authenticator app is set up.");
  if (state.requiredBy && state.passkeys === 0) {
    throw new ServiceError("second_factor_required", "Your account must keep a second factor: add a passkey before removing the authenticator app.");
  }
  await withTransaction(ctx.db, async (tx) => {
    await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "user.totp_disabled", targetType: "user", targetId: userId } });
  });
  return { removed: true };
}
