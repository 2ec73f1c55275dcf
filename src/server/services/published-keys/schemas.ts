import { z } from "zod";
import { listSchema, pageLimit } from "../pagination";
import { createSelectSchema } from "drizzle-zod";
import { publishedKeys, publishedKeyStatuses, type PublishedKeyRow } from "@/server/db/schema";
import { MAX_KEY_BYTES } from "@/server/keys/parse";
import { describeFields, isoTimestamps, rowShape } from "../row-shape";
import { screenForPrivateMaterial } from "./refusals";

export const MAX_KEYS_PER_REQUEST = 10;
export const MAX_ACTIVE_KEYS = 50;

export const keyUse = z.enum(["sig", "enc"]);

export const kid = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces");

export const publishKeyEntry = z.strictObject({
  jwk: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("A public JWK (OKP, EC or RSA). Private members (d, p, q, dp, dq, qi, oth, k) are refused."),
  pem: z.string().optional().describe("A PEM `PUBLIC KEY` (SPKI) block and nothing else."),
  kid: kid.optional().describe("Defaults to the key's RFC 7638 thumbprint. Re-publishing a kid rotates it."),
  use: keyUse.describe("`sig` or `enc`. Ed25519 is sig-only, X25519 enc-only."),
  label: z.string().trim().min(1).max(200).nullish(),
});

const publishKeysBody = z.strictObject({
  keys: z
    .array(publishKeyEntry)
    .min(1)
    .describe(`1–${MAX_KEYS_PER_REQUEST} keys, each at most ${MAX_KEY_BYTES} bytes.`),
});

/**
 * Exactly one of `jwk`/`pem` per key, 1–10 keys, ≤ 16 KiB a key and ≤ 50 active keys a merchant are checked
 * by the verb (422 `unsupported_key`, `too_many_keys`, `key_too_large`) rather than here, so they answer with
 * their own codes. The screen runs first, on the body as sent (a refinement would only see the fields the
 * strict object keeps): a private key anywhere in it is reported as `private_key_material`, never hidden
 * behind a 400 about an unknown or another field. OpenAPI documents the body schema (preprocess is transparent).
 */
export const publishKeysInput = z.preprocess((body: z.input<typeof publishKeysBody>) => {
  screenForPrivateMaterial(body);
  return body;
}, publishKeysBody);
export type PublishKeysInput = z.input<typeof publishKeysInput>;
export type PublishKeysData = z.output<typeof publishKeysInput>;

/** The public JWK as stored and served: only the canonical public members. */
export const publicJwkSchema = z
  .object({
    kty: z.enum(["OKP", "EC", "RSA"]),
    crv: z.string().optional(),
    x: z.string().optional(),
    y: z.string().optional(),
    n: z.string().optional(),
    e: z.string().optional(),
  })
  .describe("A public JWK: OKP {crv, x}, EC {crv, x, y} or RSA {n, e}.");

/** `PublishedKey` (docs/api-contract.md, "Shapes"), plus `revokedAt`: the published_keys row less whose it is. */
export const publishedKeySchema = describeFields(
  createSelectSchema(publishedKeys, { ...isoTimestamps(publishedKeys), jwk: publicJwkSchema }).omit({ merchantId: true }),
  { thumbprint: "RFC 7638 JWK thumbprint (SHA-256, base64url)." },
).meta({ id: "PublishedKey" });
export type PublishedKey = z.infer<typeof publishedKeySchema>;

export const toPublishedKey = rowShape<typeof publishedKeySchema, PublishedKeyRow>(publishedKeySchema);

export const publishKeysResult = z.object({ data: z.array(publishedKeySchema) });

export const listPublishedKeysInput = z.strictObject({
  limit: pageLimit,
  cursor: z.string().max(512).optional(),
  status: z.enum(publishedKeyStatuses).optional(),
});
export type ListPublishedKeysInput = z.input<typeof listPublishedKeysInput>;

export const publishedKeyList = listSchema(publishedKeySchema);

export const publishedKeyIdParams = z.object({ id: z.string() });

export const directoryParams = z.object({ merchantId: z.string() });

/** RFC 7517 §5 JWK Set: the active keys, each with its kid and use. */
export const directoryResult = z.object({
  keys: z.array(publicJwkSchema.extend({ kid: z.string(), use: keyUse })),
});
