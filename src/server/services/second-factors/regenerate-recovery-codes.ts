import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSelf, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { verifyOwnPassword } from "../users/verify-own-password";
import { validateInput } from "../validate";
import { secondFactorState } from "./policy";
import { replaceRecoveryCodes } from "./recovery-codes";
import { removeFactorInput } from "./schemas";

/** Ten new recovery codes for the signed-in user (the old ones stop working), after their password; shown once. */
export async function regenerateRecoveryCodes({ ctx, input }: { ctx: ServiceContext; input: { password: string } }) {
  const { userId } = requireSelf(ctx);
  const { password } = validateInput(removeFactorInput, input);
  await verifyOwnPassword(ctx, userId, password);
  if (!(await secondFactorState(ctx, userId)).totp) throw new ServiceError("not_found", "Recovery codes come with an authenticator app: set one up first.");
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const codes = await replaceRecoveryCodes(txCtx, userId);
    await recordAudit({ ctx: txCtx, input: { action: "user.recovery_codes_replaced", targetType: "user", targetId: userId } });
    return { recoveryCodes: codes };
  });
}
