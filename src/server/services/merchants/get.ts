import { eq } from "drizzle-orm";
import { merchants, type MerchantRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { requireMerchantId, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { NotFoundError } from "../errors";
import { merchantIdInput, toMerchant } from "./schemas";

/**
 * The context's own merchant, when `id` names it; any other id is 404 whether or not it exists, so a
 * merchant cannot probe for others. The query itself is by the context's merchant, never by input.
 */
export async function getMerchant({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const merchantId = requireMerchantId(ctx);
  const { id } = validateInput(merchantIdInput, input);
  if (id !== merchantId) throw new NotFoundError("merchant");
  return toMerchant(await getMerchantRow(ctx.db, merchantId));
}

/** Fetch-or-throw for verbs that already hold the context's merchant id. */
export async function getMerchantRow(db: Executor, merchantId: string, options: { forUpdate?: boolean } = {}): Promise<MerchantRow> {
  const query = db.select().from(merchants).where(eq(merchants.id, merchantId));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("merchant");
  return row;
}
