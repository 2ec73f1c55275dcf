import { and, asc, eq } from "drizzle-orm";
import { paymentMethods } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { MerchantScope } from "../context";
import { paymentMethodSchema, type PaymentMethod } from "./schemas";

/** One mode's published methods of one merchant, in the merchant's order (the settings and the checkout page). */
export async function fetchPaymentMethods(db: Executor, scope: MerchantScope): Promise<PaymentMethod[]> {
  const rows = await db
    .select({ type: paymentMethods.type, details: paymentMethods.details })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.merchantId, scope.merchantId), eq(paymentMethods.livemode, scope.livemode)))
    .orderBy(asc(paymentMethods.position));
  // Rows were validated on the way in; parsing again keeps the returned shape exact (no stray jsonb keys).
  return rows.map((row) => paymentMethodSchema.parse({ ...row.details, type: row.type }));
}
