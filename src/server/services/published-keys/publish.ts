import { and, count, eq, inArray } from "drizzle-orm";
import { merchants, publishedKeys, type PublishedKeyRow } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import type { Transaction } from "@/server/db/types";
import { newId } from "@/lib/ids";
import { inTransaction, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { emitEvent } from "../events/emit";
import { validateInput } from "../validate";
import { recordAudit } from "../audit/record";
import { readCandidates } from "./candidates";
import { requireKeyOwner } from "./owner";
import { MAX_ACTIVE_KEYS, MAX_KEYS_PER_REQUEST, publishKeysInput, toPublishedKey, type PublishKeysInput } from "./schemas";

/**
 * Publishes public keys for the context's merchant. Every key is read and checked before anything is
 * written (one refusal refuses the request). Re-publishing a kid retires the active key under it (kept, with
 * its dates); re-publishing the very same key under the same kid and use changes nothing but its label.
 * One `keys.published` event for whatever changed, in the same transaction.
 */
export async function publishKeys({ ctx, input }: { ctx: ServiceContext; input: PublishKeysInput }) {
  const merchantId = requireKeyOwner(ctx);
  const data = validateInput(publishKeysInput, input, "body");
  if (data.keys.length > MAX_KEYS_PER_REQUEST) {
    throw new ServiceError("too_many_keys", `Publish at most ${MAX_KEYS_PER_REQUEST} keys per request.`);
  }
  const candidates = readCandidates(data.keys);

  return withTransaction(ctx.db, async (tx) => {
    // Serialise publishes per merchant: the active-key limit and kid rotation read, then write.
    await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
    const now = ctx.now();
    const current = await tx
      .select()
      .from(publishedKeys)
      .where(
        and(
          eq(publishedKeys.merchantId, merchantId),
          eq(publishedKeys.status, "active"),
          inArray(publishedKeys.kid, candidates.map((candidate) => candidate.kid)),
        ),
      );
    const activeByKid = new Map(current.map((row) => [row.kid, row]));

    const results: PublishedKeyRow[] = [];
    const inserted: PublishedKeyRow[] = [];
    const retired: PublishedKeyRow[] = [];
    for (const candidate of candidates) {
      const existing = activeByKid.get(candidate.kid);
      if (existing && existing.thumbprint === candidate.key.thumbprint && existing.use === candidate.use) {
        results.push(await relabel(tx, existing, candidate.label));
        continue;
      }
      if (existing) retired.push(await retire(tx, existing, now));
      const [row] = await tx
        .insert(publishedKeys)
        .values({
          id: newId("publishedKey"),
          merchantId,
          kid: candidate.kid,
          use: candidate.use,
          label: candidate.label,
          jwk: { ...candidate.key.jwk },
          thumbprint: candidate.key.thumbprint,
          status: "active",
          createdAt: now,
        })
        .returning();
      inserted.push(row!);
      results.push(row!);
    }

    const [active] = await tx
      .select({ total: count() })
      .from(publishedKeys)
      .where(and(eq(publishedKeys.merchantId, merchantId), eq(publishedKeys.status, "active")));
    if ((active?.total ?? 0) > MAX_ACTIVE_KEYS) {
      // Thrown inside the transaction: everything above rolls back.
      throw new ServiceError(
        "too_many_keys",
        `A merchant may have at most ${MAX_ACTIVE_KEYS} active keys. Revoke some before publishing more.`,
      );
    }

    if (inserted.length > 0) {
      await emitEvent({
        ctx: inTransaction(ctx, tx),
        input: {
          type: "keys.published",
          data: {
            keys: inserted.map(({ id, kid, use, thumbprint, jwk }) => ({ id, kid, use, thumbprint, jwk })),
            retired: retired.map(({ id, kid, thumbprint }) => ({ id, kid, thumbprint })),
          },
        },
      });
      ctx.log.info({ merchantId, published: inserted.length, retired: retired.length }, "keys published");
      await recordAudit({
        ctx: inTransaction(ctx, tx),
        input: {
          action: "published_keys.published",
          targetType: "merchant",
          targetId: merchantId,
          merchantId,
          details: { published: inserted.map(({ id, kid, use, thumbprint }) => ({ id, kid, use, thumbprint })), retired: retired.map(({ id, kid }) => ({ id, kid })) },
        },
      });
    }
    return { data: results.map(toPublishedKey) };
  });
}

async function retire(tx: Transaction, row: PublishedKeyRow, now: Date): Promise<PublishedKeyRow> {
  const [updated] = await tx
    .update(publishedKeys)
    .set({ status: "retired", retiredAt: now })
    .where(and(eq(publishedKeys.id, row.id), eq(publishedKeys.merchantId, row.merchantId)))
    .returning();
  return updated!;
}

async function relabel(tx: Transaction, row: PublishedKeyRow, label: string | null): Promise<PublishedKeyRow> {
  if (label === null || label === row.label) return row;
  const [updated] = await tx
    .update(publishedKeys)
    .set({ label })
    .where(and(eq(publishedKeys.id, row.id), eq(publishedKeys.merchantId, row.merchantId)))
    .returning();
  return updated!;
}
