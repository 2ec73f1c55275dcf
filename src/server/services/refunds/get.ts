import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";
import { findRefund } from "./fetch";
import { refundIdInput, toRefund, type Refund } from "./schemas";

/** One of the merchant's refunds in the caller's mode; another merchant's or mode's id answers 404 like an unknown one. */
export async function getRefund({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Refund> {
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(refundIdInput, input, "params");
  const row = await findRefund(ctx.db, scope, id);
  if (!row) throw new NotFoundError("refund");
  return toRefund(row, ctx.env);
}
