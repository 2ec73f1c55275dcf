import { getKeyDirectory } from "@/server/services/published-keys/get-directory";
import { publishKeys } from "@/server/services/published-keys/publish";
import { revokePublishedKey } from "@/server/services/published-keys/revoke";
import {
  directoryParams,
  directoryResult,
  MAX_ACTIVE_KEYS,
  MAX_KEYS_PER_REQUEST,
  publishedKeyIdParams,
  publishedKeySchema,
  publishKeysInput,
  publishKeysResult,
} from "@/server/services/published-keys/schemas";
import { EXAMPLE_JWK, EXAMPLE_PUBLISHED_KEY, EXAMPLE_TIME } from "@/server/openapi/examples";
import { defineRoute } from "../route";

// POST /api/v1/merchant/keys/publish – publish (or rotate) public keys
export const publishKeysRoute = defineRoute({
  operationId: "publishKeys",
  method: "POST",
  path: "/merchant/keys/publish",
  summary: "Publish public keys",
  description:
    "Publishes public keys (JWK, or PEM `PUBLIC KEY`; Ed25519, X25519, P-256, P-384, secp256k1, RSA ≥ 2048 bits) " +
    "in the merchant's directory. Each entry has exactly one of `jwk` and `pem`. Anything that is or contains " +
    "private or symmetric material is refused with 422 `private_key_material` and is never stored, logged or " +
    "echoed: treat that key as exposed. Certificates, weak RSA and other curves are 422 `unsupported_key`. " +
    `At most ${MAX_KEYS_PER_REQUEST} keys per request and ${MAX_ACTIVE_KEYS} active keys (422 \`too_many_keys\`), ` +
    "16 KiB per key (422 `key_too_large`). Re-publishing a kid retires the key it had (kept, with its dates). " +
    "Emits `keys.published`.",
  tags: ["Published keys"],
  auth: "api_key",
  permission: "published_keys.write",
  body: publishKeysInput,
  bodyExample: { keys: [{ jwk: { ...EXAMPLE_JWK }, kid: EXAMPLE_PUBLISHED_KEY.kid, use: "sig", label: "Order signing" }] },
  responses: {
    201: {
      description: "The keys as published, in request order.",
      schema: publishKeysResult,
      example: { data: [EXAMPLE_PUBLISHED_KEY] },
    },
  },
  errors: ["forbidden", "private_key_material", "unsupported_key", "key_too_large", "too_many_keys"],
  handler: async ({ ctx, body }) => ({ status: 201, body: await publishKeys({ ctx, input: body }) }),
});

// POST /api/v1/merchant/keys/{id}/revoke – take a published key out of the directory for good
export const revokePublishedKeyRoute = defineRoute({
  operationId: "revokePublishedKey",
  method: "POST",
  path: "/merchant/keys/{id}/revoke",
  summary: "Revoke a published key",
  description: "The key leaves the directory at once and is kept, marked `revoked`, in the history.",
  tags: ["Published keys"],
  auth: "api_key",
  permission: "published_keys.write",
  params: publishedKeyIdParams,
  errors: ["forbidden"],
  responses: {
    200: {
      description: "The revoked key.",
      schema: publishedKeySchema,
      example: { ...EXAMPLE_PUBLISHED_KEY, status: "revoked", revokedAt: EXAMPLE_TIME },
    },
  },
  handler: async ({ ctx, params }) => ({ status: 200, body: await revokePublishedKey({ ctx, input: params }) }),
});

/**
 * Short enough that a revoked key drops out of caches within a minute; the ETag makes every revalidation
 * after that a 304 without a body.
 */
const DIRECTORY_CACHE_CONTROL = "public, max-age=60, must-revalidate";

// GET /api/v1/directory/{merchantId} – the merchant's active public keys as a JWKS (no auth)
export const keyDirectoryRoute = defineRoute({
  operationId: "getKeyDirectory",
  method: "GET",
  path: "/directory/{merchantId}",
  summary: "A merchant's public keys (JWKS)",
  description:
    "The merchant's active published keys as an RFC 7517 JWK Set. Public and cacheable: send the `ETag` back " +
    "as `If-None-Match` to get a 304 when nothing changed.",
  tags: ["Published keys"],
  auth: "none",
  params: directoryParams,
  responses: {
    200: {
      description: "The JWK Set.",
      schema: directoryResult,
      example: { keys: [{ ...EXAMPLE_JWK, kid: EXAMPLE_PUBLISHED_KEY.kid, use: "sig" }] },
    },
    304: { description: "Not modified since the ETag sent in `If-None-Match`." },
  },
  handler: async ({ ctx, params, request }) => {
    const { body, etag } = await getKeyDirectory({ ctx, input: params });
    const headers = { etag, "cache-control": DIRECTORY_CACHE_CONTROL };
    if (matchesEtag(request.headers.get("if-none-match"), etag)) return { status: 304, headers };
    return { status: 200, body, headers };
  },
});

/** RFC 9110 §13.1.2: `*` or a list of entity tags, compared weakly (a `W/` prefix is ignored). */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export const publishedKeyRoutes = [publishKeysRoute, revokePublishedKeyRoute, keyDirectoryRoute];
