import { eq } from "drizzle-orm";
import { z } from "zod";
import { merchants } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantId, requireSettingsWriter, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { validateInput } from "../validate";

export const secondFactorPolicyInput = z.strictObject({ required: z.boolean() });

/** Whether the signed-in user's merchant requires a second factor of every member. */
export async function getSecondFactorPolicy({ ctx }: { ctx: ServiceContext }) {
  const merchantId = requireMerchantId(ctx);
  const [row] = await ctx.db.select({ required: merchants.requireSecondFactor }).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  if (!row) throw new ServiceError("not_found", "No such merchant.");
  return { required: row.required };
}

/**
 * Requires (or stops requiring) a second factor of every user of the merchant (docs/team-and-security.md,
 * "Second factors"): those without one set one up at their next sign-in; sessions already open go on. Only
 * the merchant's own users with the account's settings (the owner, once roles exist); audited.
 */
export async function setSecondFactorPolicy({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof secondFactorPolicyInput> }) {
  const merchantId = requireSettingsWriter(ctx);
  if (ctx.actor.type !== "user") throw new ServiceError("forbidden", "Only the merchant's own users set its sign-in policy.");
  const { required } = validateInput(secondFactorPolicyInput, input);
  return withTransaction(ctx.db, async (tx) => {
    await tx.update(merchants).set({ requireSecondFactor: required, updatedAt: ctx.now() }).where(eq(merchants.id, merchantId));
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: required ? "merchant.second_factor_required" : "merchant.second_factor_optional", targetType: "merchant", targetId: merchantId },
    });
    return { required };
  });
}
