import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { AnyRoute } from "@/server/http/route";
import { ERROR_CODES, type ErrorCode } from "@/server/services/error-codes";
import { EXAMPLE_IDS } from "./examples";
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "@/server/http/idempotency";
import { documentedErrorCodes, problemExample, problemSchema, takesIdempotencyKey } from "./problem";
import { eventBodyExample, eventBodySchema, eventDocumentation, eventTypes, webhookHeadersSchema } from "./webhooks";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const PROBLEM_JSON = "application/problem+json";
export const SECURITY_SCHEME = "apiKey";

/**
 * The OpenAPI 3.1 document, generated from the route declarations (src/server/http/routes) and the event
 * catalogue: nothing in it is written twice. Pure and deterministic, so it can be cached and compared.
 */
export function generateOpenApiDocument(routes: readonly AnyRoute[]): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", SECURITY_SCHEME, {
    type: "http",
    scheme: "bearer",
    bearerFormat: "sk_live_…",
    description:
      "Your API key as `Authorization: Bearer sk_live_…`. Keys are shown once, at registration or creation; " +
      "a mistyped key is refused without a lookup (it carries a checksum).",
  });
  registry.registerComponent("headers", "RequestId", {
    description: "Identifies this request in our logs; quote it to support.",
    schema: { type: "string", examples: [EXAMPLE_IDS.request] },
  });
  registry.registerComponent("schemas", "Problem", jsonSchemaOf(problemSchema));

  for (const route of routes) registry.registerPath(operationOf(route));
  for (const type of eventTypes) registry.registerWebhook(webhookOf(type));

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Merchant Payments API",
      version: "1.0.0",
      description:
        "Record and confirm payments, look them up, inspect and retry webhook deliveries, publish public keys. " +
        "Errors are RFC 9457 problem details with a stable `code` (catalogue: /docs/errors). Lists are " +
        "cursor-paginated: `?limit=` (1–100) and `?cursor=`, answering `{data, hasMore, nextCursor}`.",
    },
    servers: [{ url: "/api/v1" }],
    tags: tagsOf(routes),
  });
}

function operationOf(route: AnyRoute): RouteConfig {
  return {
    method: route.method.toLowerCase() as RouteConfig["method"],
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security: route.auth === "api_key" ? [{ [SECURITY_SCHEME]: [] }] : [],
    request: {
      ...(takesIdempotencyKey(route) ? { headers: idempotencyHeader } : {}),
      ...(route.params ? { params: route.params as never } : {}),
      ...(route.query ? { query: route.query as never } : {}),
      ...(route.body
        ? {
            body: {
              required: true,
              content: {
                "application/json": {
                  schema: route.body,
                  ...(route.bodyExample !== undefined ? { example: route.bodyExample } : {}),
                },
              },
            },
          }
        : {}),
    },
    responses: { ...successResponses(route, takesIdempotencyKey(route)), ...errorResponses(documentedErrorCodes(route)) },
  };
}

const idempotencyHeader = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .describe(
      "Any unique string (a UUID) per logical request. A retry with the same key and body gets the first " +
        "answer again (`Idempotent-Replayed: true`); the same key with another body is 422 " +
        "`idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_use`. Kept 24 h.",
    ),
});

const replayedHeader = {
  description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
  schema: { type: "string" as const, enum: ["true"] },
};

function successResponses(route: AnyRoute, replayable: boolean): Record<string, ResponseConfig> {
  return Object.fromEntries(
    Object.entries(route.responses).map(([status, declared]) => [
      status,
      {
        description: declared.description,
        headers: {
          "x-request-id": { $ref: "#/components/headers/RequestId" },
          ...(replayable ? { "idempotent-replayed": replayedHeader } : {}),
        },
        ...(declared.schema
          ? {
              content: {
                "application/json": {
                  schema: declared.schema,
                  ...(declared.example !== undefined ? { example: declared.example } : {}),
                },
              },
            }
          : {}),
      },
    ]),
  );
}

/** One response per status; its `code` narrowed to the codes this operation can answer with at that status. */
function errorResponses(codes: ErrorCode[]): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.map((code) => `\`${code}\`: ${ERROR_CODES[code].title}`).join("; "),
        headers: { "x-request-id": { $ref: "#/components/headers/RequestId" }, ...problemHeaders(status) },
        content: {
          [PROBLEM_JSON]: {
            schema: {
              allOf: [
                { $ref: "#/components/schemas/Problem" },
                { type: "object", properties: { code: { type: "string", enum: statusCodes } } },
              ],
            },
            examples: Object.fromEntries(
              statusCodes.map((code) => [code, { summary: ERROR_CODES[code].title, value: problemExample(code) }]),
            ),
          },
        },
      },
    ]),
  );
}

function problemHeaders(status: number): Record<string, { description: string; schema: { type: "integer" | "string" } }> {
  const retryAfter = { description: "Seconds to wait before trying again.", schema: { type: "integer" as const } };
  if (status === 429 || status === 503) return { "retry-after": retryAfter };
  if (status === 401) {
    return { "www-authenticate": { description: "`Bearer realm=\"api\"`, with `error=\"invalid_token\"` for a bad key.", schema: { type: "string" as const } } };
  }
  return {};
}

function webhookOf(type: (typeof eventTypes)[number]): RouteConfig {
  const doc = eventDocumentation[type];
  return {
    method: "post",
    path: type,
    operationId: `event.${type}`,
    summary: doc.summary,
    description:
      `${doc.description}\n\nSent as a signed POST to your webhook URL. Verify the signature over the raw body, ` +
      "check the timestamp window, drop a `webhook-id` you have seen, and answer 2xx only once the event is " +
      "stored: anything else is retried for about three days.",
    tags: ["Webhook events"],
    request: {
      headers: webhookHeadersSchema,
      body: {
        required: true,
        content: { "application/json": { schema: eventBodySchema(type), example: eventBodyExample(type) } },
      },
    },
    responses: {
      "2XX": { description: "Received and stored; no further attempts." },
      default: { description: "Any other status, a timeout or a connection error: the delivery is retried." },
    },
  };
}

function tagsOf(routes: readonly AnyRoute[]) {
  const names = [...new Set(routes.flatMap((route) => route.tags)), "Webhook events"];
  return names.map((name) => ({ name }));
}

/** A zod schema as a plain JSON Schema 2020-12 object (OpenAPI 3.1's dialect) for a raw component. */
function jsonSchemaOf(schema: z.ZodType) {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12" });
  return rest as Record<string, unknown>;
}
