import { requireMerchantId, type ServiceContext } from "../context";
import { parseInput } from "../parse";
import { getPaymentForMerchant } from "./fetch";
import { getPaymentInput, toPayment, type Payment } from "./schemas";

/** One of the merchant's payments; another merchant's id answers 404 like an unknown one. */
export async function getPayment({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Payment> {
  const merchantId = requireMerchantId(ctx);
  const { id } = parseInput(getPaymentInput, input, "params");
  return toPayment(await getPaymentForMerchant(ctx.db, merchantId, id));
}
