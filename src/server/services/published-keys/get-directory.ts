import { createHash } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { merchants, publishedKeys } from "@/server/db/schema";
import { isId } from "@/lib/ids";
import type { ServiceContext } from "../context";
import { NotFoundError } from "../errors";

/**
 * The public key directory of one merchant: its active keys as an RFC 7517 JWK Set, oldest first, and a
 * strong ETag over exactly that body. Public by design (anyone verifying the merchant's signatures needs it),
 * so it reads nothing but the published public JWKs; an unknown merchant is a 404.
 */
export async function getKeyDirectory({ ctx, input }: { ctx: ServiceContext; input: { merchantId: string } }) {
  if (!isId("merchant", input.merchantId)) throw new NotFoundError("merchant");
  const [merchant] = await ctx.db
    .select({ id: merchants.id })
    .from(merchants)
    .where(eq(merchants.id, input.merchantId));
  if (!merchant) throw new NotFoundError("merchant");

  const rows = await ctx.db
    .select({ kid: publishedKeys.kid, use: publishedKeys.use, jwk: publishedKeys.jwk })
    .from(publishedKeys)
    .where(and(eq(publishedKeys.merchantId, merchant.id), eq(publishedKeys.status, "active")))
    .orderBy(asc(publishedKeys.createdAt), asc(publishedKeys.id));
  const body = { keys: rows.map((row) => ({ ...row.jwk, kid: row.kid, use: row.use })) };
  const etag = `"${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 32)}"`;
  return { body, etag };
}
