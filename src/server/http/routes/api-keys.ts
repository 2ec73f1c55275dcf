import { z } from "zod";
import { createApiKey } from "@/server/services/api-keys/create";
import { apiKeySchema, createApiKeyInput } from "@/server/services/api-keys/schemas";
import { EXAMPLE_IDS, EXAMPLE_TEST_API_KEY, EXAMPLE_TIME } from "@/server/openapi/examples";
import { SECRET_SHOWN_ONCE } from "../idempotency";
import { defineRoute } from "../route";

const createdApiKeySchema = z
  .object({
    apiKey: apiKeySchema,
    secret: z
      .string()
      .nullable()
      .describe(
        "The key itself (`sk_live_…`, `sk_test_…`, or `rk_live_…`/`rk_test_…` with `scopes`), shown only in this response: null in its replay for the same Idempotency-Key.",
      ),
  })
  .meta({ id: "CreatedApiKey" });

// POST /api/v1/merchant/api-key – another API key, live or test
export const createApiKeyRoute = defineRoute({
  operationId: "createApiKey",
  method: "POST",
  path: "/merchant/api-key",
  summary: "Create an API key",
  description:
    "Another key for your merchant. `mode: \"test\"` makes an `sk_test_` key: everything it creates is test data, " +
    "never seen by live keys or in live statistics, and the reverse (docs/test-mode.md). Without a body, a live key. " +
    "A test key can create test keys only. With `scopes`, a restricted key (`rk_live_`/`rk_test_`) that may touch " +
    "only those resources (`{payments: \"read\", refunds: \"write\"}`; a resource left out is `none`); a restricted key " +
    "cannot call this route. The key is shown only in this response: store it now.",
  tags: ["Merchants"],
  auth: "api_key",
  permission: "api_keys.write",
  body: createApiKeyInput,
  bodyExample: { mode: "test", name: "CI" },
  responses: {
    201: {
      description: "The key and its secret.",
      schema: createdApiKeySchema,
      example: {
        apiKey: {
          id: EXAMPLE_IDS.apiKey,
          name: "CI",
          hint: "…" + EXAMPLE_TEST_API_KEY.slice(-4),
          mode: "test",
          status: "active",
          lastUsedAt: null,
          expiresAt: null,
          revokedAt: null,
          createdAt: EXAMPLE_TIME,
          scopes: null,
        },
        secret: EXAMPLE_TEST_API_KEY,
      },
    },
  },
  errors: ["forbidden", "too_many_keys", "idempotency_key_in_use"],
  idempotency: SECRET_SHOWN_ONCE,
  handler: async ({ ctx, body }) => {
    const { apiKey, key } = await createApiKey({ ctx, input: body });
    return { status: 201, body: { apiKey, secret: key } };
  },
});

export const apiKeyRoutes = [createApiKeyRoute];
