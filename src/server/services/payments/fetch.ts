import { and, eq, sql } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { payments, type PaymentRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { NotFoundError } from "../errors";

function paymentByIdQuery(db: Executor) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.id, sql.placeholder("id")), eq(payments.merchantId, sql.placeholder("merchantId"))))
    .limit(1)
    .prepare("payment_by_id_for_merchant");
}

// Built once per database handle or transaction: on the hot GET path, drizzle's query building costs more
// CPU than PostgreSQL spends answering (BENCHMARKS.md).
const preparedByExecutor = new WeakMap<Executor, ReturnType<typeof paymentByIdQuery>>();

/** One of this merchant's payments, or 404 (also for another merchant's id: existence must not leak). */
export async function getPaymentForMerchant(db: Executor, merchantId: string, id: string): Promise<PaymentRow> {
  // A string that is not a payment id cannot name one: answer without a query.
  if (!isId("payment", id)) throw new NotFoundError("payment");
  let query = preparedByExecutor.get(db);
  if (!query) {
    query = paymentByIdQuery(db);
    preparedByExecutor.set(db, query);
  }
  const [row] = await query.execute({ id, merchantId });
  if (!row) throw new NotFoundError("payment");
  return row;
}

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
