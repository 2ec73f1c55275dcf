import { and, eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { invoices, type InvoiceRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { MerchantScope } from "../context";

/**
 * The merchant's invoice by id in the given mode, or undefined (unknown, malformed, another merchant's or the other
 * mode's: the same answer).
 * `forUpdate` locks the row until the transaction ends: every change to an invoice takes this lock first, so
 * concurrent payments, voids and the expiry sweep apply one after another (docs/invoices.md).
 */
export async function findInvoice(
  db: Executor,
  { merchantId, livemode }: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvoiceRow | undefined> {
  if (!isId("invoice", id)) return undefined;
  const query = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.merchantId, merchantId), eq(invoices.livemode, livemode)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  return row;
}
