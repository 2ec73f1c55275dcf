import { users } from "@/server/db/schema";
import { isUniqueViolation } from "@/server/db/errors";
import { withTransaction } from "@/server/db/transaction";
import { hashPassword } from "@/server/crypto/passwords";
import { newId } from "@/lib/ids";
import { recordAudit } from "../audit/record";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { validateInput } from "../validate";
import { createStaffInput, toSessionUser, type CreateStaffInput } from "./schemas";

/** Creates a support-staff login. Only the operator's script calls this (a system actor): no public sign-up. */
export async function createStaffUser({ ctx, input }: { ctx: ServiceContext; input: CreateStaffInput }) {
  if (ctx.actor.type !== "system") throw new ServiceError("forbidden", "Staff accounts are created by an operator.");
  const data = validateInput(createStaffInput, input);
  const passwordHash = await hashPassword(data.password);
  const now = ctx.now();
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ id: newId("user"), email: data.email, passwordHash, role: "staff", staffRole: data.role, merchantId: null, name: data.name ?? null, createdAt: now, updatedAt: now })
        .returning();
      await recordAudit({
        ctx: { ...ctx, db: tx },
        input: { action: "staff.created", targetType: "user", targetId: row!.id, merchantId: null },
      });
      return toSessionUser(row!, null)!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServiceError("email_taken", "An account with this email already exists.");
    throw error;
  }
}
