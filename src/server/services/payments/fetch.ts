import { eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { payments, type PaymentRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { NotFoundError } from "../errors";

/**
 * Any merchant's payment by id, locked for update when `forUpdate`. Unscoped on purpose: only for verbs
 * that have already checked the actor is support staff.
 */
export async function unsafeGetPaymentById(db: Executor, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRow> {
  if (!isId("payment", id)) throw new NotFoundError("payment");
  const query = db.select().from(payments).where(eq(payments.id, id)).limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("payment");
  return row;
}
