import { isId } from "@/lib/ids";
import { queryRows } from "@/server/db/raw";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";
import { PAYMENT_BY_ID_SQL, paymentFromTextRow, type PaymentTextRow } from "./payment-text-row";
import { getPaymentInput, type Payment } from "./schemas";

/** One of the merchant's payments in the caller's mode; another merchant's or mode's id answers 404 like an unknown one. */
export async function getPayment({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Payment> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { id } = validateInput(getPaymentInput, input, "params");
  // A string that is not a payment id cannot name one: answer without a query.
  if (!isId("payment", id)) throw new NotFoundError("payment");
  const [row] = await queryRows<PaymentTextRow>(ctx.db, PAYMENT_BY_ID_SQL, [id, merchantId, String(livemode)]);
  if (!row) throw new NotFoundError("payment");
  return paymentFromTextRow(row);
}
