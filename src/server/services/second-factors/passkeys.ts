import { and, desc, eq } from "drizzle-orm";
import { passkeys } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSelf, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { verifyOwnPassword } from "../users/verify-own-password";
import { validateInput } from "../validate";
import { secondFactorState } from "./policy";
import { removePasskeyInput } from "./schemas";

/** The signed-in user's passkeys, newest first: name, when added and last used (no key material). */
export async function listOwnPasskeys({ ctx }: { ctx: ServiceContext }) {
  const { userId } = requireSelf(ctx);
  return ctx.db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt, backedUp: passkeys.backedUp })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt));
}

/** Removes one of the signed-in user's passkeys after their password; never the last factor of one who needs one. */
export async function removePasskey({ ctx, input }: { ctx: ServiceContext; input: { id: string; password: string } }) {
  const { userId } = requireSelf(ctx);
  const { id, password } = validateInput(removePasskeyInput, input);
  await verifyOwnPassword(ctx, userId, password);
  const state = await secondFactorState(ctx, userId);
  if (state.requiredBy && !state.totp && state.passkeys <= 1) {
    throw new ServiceError("second_factor_required", "Your account must keep a second factor: add another before removing this passkey.");
  }
  await withTransaction(ctx.db, async (tx) => {
    const removed = await tx.delete(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId))).returning({ id: passkeys.id });
    // Another user's passkey id answers as an unknown one.
    if (removed.length === 0) throw new NotFoundError("passkey");
    await recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "user.passkey_removed", targetType: "passkey", targetId: id } });
  });
  return { removed: true };
}
