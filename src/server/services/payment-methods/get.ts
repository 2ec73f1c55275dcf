import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { merchantIdInput } from "../merchants/schemas";
import { validateInput } from "../validate";
import { fetchPaymentMethods } from "./fetch";
import type { PaymentMethods } from "./schemas";

/** The context's own merchant's methods in the context's mode; another merchant's id is 404. */
export async function getPaymentMethods({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<PaymentMethods> {
  const scope = requireMerchantScope(ctx);
  if (validateInput(merchantIdInput, input).id !== scope.merchantId) throw new NotFoundError("merchant");
  return { livemode: scope.livemode, methods: await fetchPaymentMethods(ctx.db, scope) };
}
