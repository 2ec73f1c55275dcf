import { and, eq, sql } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { preparedOn } from "@/server/db/prepared";
import { payments } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";
import { getPaymentInput, paymentColumns, toPayment, type Payment } from "./schemas";

const paymentById = (db: Executor) =>
  db
    .select(paymentColumns)
    .from(payments)
    .where(and(eq(payments.id, sql.placeholder("id")), eq(payments.merchantId, sql.placeholder("merchantId")), eq(payments.livemode, sql.placeholder("livemode"))));

/** One of the merchant's payments in the caller's mode; another merchant's or mode's id answers 404 like an unknown one. */
export async function getPayment({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Payment> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { id } = validateInput(getPaymentInput, input, "params");
  // A string that is not a payment id cannot name one: answer without a query.
  if (!isId("payment", id)) throw new NotFoundError("payment");
  const [row] = await preparedOn(ctx.db, "payment_by_id", paymentById).execute({ id, merchantId, livemode });
  if (!row) throw new NotFoundError("payment");
  return toPayment(row);
}
