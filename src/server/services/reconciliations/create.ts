import { and, eq } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { reconciliations } from "@/server/db/schema";
import { getMerchantRow } from "../merchants/get";
import { actorId, readingPrimary, requireMerchantScope, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { finishReconciliation } from "./finish";
import { getReconciliation } from "./get";
import { insertReportLines } from "@/server/db/sql/reconciliation-lines";
import { matchLines } from "./match-lines";
import { readSettlementFile } from "./read-settlement-file";
import { columnMapping, reconciliationWindowInput, type ColumnMapping, type Reconciliation, type ReconciliationWindowInput } from "./schemas";

const BATCH_SIZE = 1000;

/**
 * Compares a settlement file with the merchant's ledger and keeps the report (docs/reconciliation.md).
 * The file is read as it streams, a batch of lines at a time: each batch is matched with one query and
 * written; the report stays `processing` (never shown) until the last step marks it complete in one
 * transaction, and any failure on the way (a malformed header, the size limit, a client gone) deletes it.
 * Merchants reconcile their own data; support staff do it for the merchant they opened.
 */
export async function createReconciliation({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { file: ReadableStream<Uint8Array>; window?: ReconciliationWindowInput; mapping?: ColumnMapping };
}): Promise<Reconciliation> {
  const scope = requireMerchantScope(ctx);
  const { merchantId, livemode } = scope;
  // Staff name the merchant: an unknown one is 404 here, not a foreign-key failure mid-file.
  await getMerchantRow(ctx.db, merchantId);
  const window = validateInput(reconciliationWindowInput, input.window ?? {}, "query");
  const mapping = input.mapping === undefined ? undefined : validateInput(columnMapping, input.mapping, "mapping");
  const id = newId("reconciliation");
  let created = false;
  // Created once the header has been read (with the first batch, or at the end of a file with none): a file
  // refused there leaves nothing.
  const createOnce = async () => {
    if (created) return;
    await ctx.db.insert(reconciliations).values({
      id, merchantId, livemode, status: "processing", createdByType: ctx.actor.type, createdBy: actorId(ctx.actor), createdAt: ctx.now(),
    });
    created = true;
  };
  try {
    let position = 0;
    const settled = { first: null as Date | null, last: null as Date | null };
    for await (const batch of readSettlementFile(input.file, { mapping, batchSize: BATCH_SIZE })) {
      await createOnce();
      const lines = await matchLines(ctx.db, scope, batch);
      for (const line of lines) {
        if (!line.settledAt) continue;
        if (!settled.first || line.settledAt < settled.first) settled.first = line.settledAt;
        if (!settled.last || line.settledAt > settled.last) settled.last = line.settledAt;
      }
      await insertReportLines(ctx.db, { merchantId, id }, position + 1, lines);
      position += lines.length;
    }
    await createOnce();
    await finishReconciliation(ctx, {
      id,
      ...scope,
      fileLines: position,
      windowGiven: (["from", "to"] as const).filter((bound) => window[bound] !== undefined),
      window: {
        from: window.from ? new Date(window.from) : settled.first,
        to: window.to ? endOf(window.to) : settled.last && (isMidnight(settled.last) ? endOf(settled.last.toISOString().slice(0, 10)) : settled.last),
      },
    });
  } catch (error) {
    if (created) await ctx.db.delete(reconciliations).where(and(eq(reconciliations.id, id), eq(reconciliations.merchantId, merchantId)));
    throw error;
  }
  return getReconciliation({ ctx: readingPrimary(ctx), input: { id } });
}

/** The end of a window bound: a day means all of it (its last millisecond), an instant itself. */
function endOf(bound: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(bound) ? new Date(Date.parse(bound) + 86_400_000 - 1) : new Date(bound);
}

function isMidnight(date: Date): boolean {
  return date.getTime() % 86_400_000 === 0;
}
