import { and, eq } from "drizzle-orm";
import { checkAddress } from "@/lib/payment-methods/addresses";
import { paymentMethods } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { getMerchantRow } from "../merchants/get";
import { merchantIdInput } from "../merchants/schemas";
import { validateInput } from "../validate";
import { fetchPaymentMethods } from "./fetch";
import { setPaymentMethodsInput, type PaymentMethod, type PaymentMethods, type SetPaymentMethodsInput } from "./schemas";

/**
 * Replaces the context's mode's payment methods with `methods`, in that order (docs/invoices.md, "Payment
 * methods"). Mode data, not an account setting: a test key edits the test list, a live key the live one. The
 * merchant's row is locked first, so two saves at once apply one after the other (the last wins whole) instead
 * of colliding on the key. A save that changes nothing writes nothing.
 */
export async function setPaymentMethods({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { id: string } & SetPaymentMethodsInput;
}): Promise<PaymentMethods> {
  const merchantId = requireMerchantWriter(ctx);
  const livemode = livemodeOf(ctx);
  const { id, ...body } = input;
  if (validateInput(merchantIdInput, { id }).id !== merchantId) throw new NotFoundError("merchant");
  const methods = validateInput(setPaymentMethodsInput, body).methods.map(normalised);

  return withTransaction(ctx.db, async (tx) => {
    await getMerchantRow(tx, merchantId, { forUpdate: true });
    const scope = { merchantId, livemode };
    const current = await fetchPaymentMethods(tx, scope);
    if (JSON.stringify(current) === JSON.stringify(methods)) return { livemode, methods: current };
    await tx.delete(paymentMethods).where(and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.livemode, livemode)));
    if (methods.length > 0) {
      const now = ctx.now();
      await tx.insert(paymentMethods).values(
        methods.map(({ type, ...details }, position) => ({ merchantId, livemode, position, type, details, createdAt: now })),
      );
    }
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: {
        action: "payment_methods.updated",
        targetType: "merchant",
        targetId: merchantId,
        merchantId,
        // Types only: the audit log names what changed, not the account numbers.
        details: { livemode, types: methods.map((method) => method.type) },
      },
    });
    return { livemode, methods: await fetchPaymentMethods(tx, scope) };
  });
}

/** The stored form: Ethereum addresses in their EIP-55 checksum case (validation already passed). */
function normalised(method: PaymentMethod): PaymentMethod {
  if (method.type !== "crypto") return method;
  const address = checkAddress(method.network, method.address);
  return address.ok ? { ...method, address: address.address } : method;
}
