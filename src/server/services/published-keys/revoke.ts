import { and, eq } from "drizzle-orm";
import { publishedKeys } from "@/server/db/schema";
import { isId } from "@/lib/ids";
import { withTransaction } from "@/server/db/transaction";
import { auditChanges } from "../audit/changes";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { requireKeyOwner } from "./owner";
import { toPublishedKey } from "./schemas";

/**
 * Revokes one of the merchant's published keys (active or retired): it leaves the directory at once and is
 * kept, marked revoked, for the history. Revoking a revoked key answers it unchanged. Another merchant's key
 * is a 404, like one that does not exist.
 */
export async function revokePublishedKey({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const merchantId = requireKeyOwner(ctx);
  if (!isId("publishedKey", input.id)) throw new NotFoundError("published key");
  const scope = and(eq(publishedKeys.id, input.id), eq(publishedKeys.merchantId, merchantId));
  const [row] = await ctx.db.select().from(publishedKeys).where(scope);
  if (!row) throw new NotFoundError("published key");
  if (row.status === "revoked") return toPublishedKey(row);

  const revoked = await withTransaction(ctx.db, async (tx) => {
    const [updated] = await tx.update(publishedKeys).set({ status: "revoked", revokedAt: ctx.now() }).where(scope).returning();
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "published_key.revoked", targetType: "published_key", targetId: row.id, merchantId, details: { kid: row.kid, ...auditChanges(row, updated!, ["status"]) } },
    });
    return updated;
  });
  ctx.log.info({ merchantId, publishedKeyId: input.id }, "published key revoked");
  return toPublishedKey(revoked!);
}
