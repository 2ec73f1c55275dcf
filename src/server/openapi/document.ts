import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { AnyRoute } from "@/server/http/route";
import { RESTRICTED_KEY_RESOURCES } from "@/server/auth/permissions";
import { codeSamplesOf } from "./code-samples";
import { EXAMPLE_IDS } from "./examples";
import { documentedErrorCodes, problemSchema, takesIdempotencyKey } from "./problem";
import { errorResponses, idempotencyHeader, successResponses } from "./responses";
import { eventBodyExample, eventBodySchema, eventDocumentation, eventTypes, webhookHeadersSchema } from "./webhooks";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

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
  // A streamed response names the schema of its events in prose: the schema itself becomes a component.
  for (const { schema, mediaType } of routes.flatMap((route) => Object.values(route.responses))) {
    const id = schema && mediaType ? z.globalRegistry.get(schema)?.id : undefined;
    if (schema && id) registry.registerComponent("schemas", id, componentOf(schema, id));
  }
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

/** The route's description, ending with the permission it needs (restricted keys: docs/team-and-security.md). */
function descriptionOf(route: AnyRoute): string | undefined {
  if (route.auth !== "api_key") return route.description;
  const scopable = (RESTRICTED_KEY_RESOURCES as readonly string[]).includes(route.permission.split(".")[0]!);
  const extra = route.alsoNeeds;
  const needs =
    `Permission: \`${route.permission}\`` +
    (extra ? `; ${extra.what} also needs \`${extra.permission}\`. ` : ". ") +
    (scopable
      ? "A restricted key (`rk_…`) whose scopes do not grant it gets 403 `insufficient_scope`; "
      : "No restricted key (`rk_…`) can hold it: one gets 403 `insufficient_scope`; ") +
    "a secret key (`sk_…`) holds every permission.";
  return route.description ? `${route.description}\n\n${needs}` : needs;
}

function operationOf(route: AnyRoute): RouteConfig {
  return {
    method: route.method.toLowerCase() as RouteConfig["method"],
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description || route.auth === "api_key" ? { description: descriptionOf(route) } : {}),
    tags: route.tags,
    "x-codeSamples": codeSamplesOf(route),
    // The permission a restricted key (`rk_…`) needs for this operation, for tools; the description says it to people.
    ...(route.auth === "api_key" ? { "x-permission": route.permission } : {}),
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
      ...(route.streamedBody
        ? {
            body: {
              required: true,
              description: route.streamedBody.description,
              content: { [route.streamedBody.mediaType]: { schema: z.string(), example: route.streamedBody.example } },
            },
          }
        : {}),
    },
    responses: { ...successResponses(route, takesIdempotencyKey(route)), ...errorResponses(documentedErrorCodes(route)) },
  };
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

/** A schema that names itself (`.meta({ id })`) as its component body: zod puts it under `$defs[id]`. */
function componentOf(schema: z.ZodType, id: string) {
  const json = jsonSchemaOf(schema) as { $defs?: Record<string, Record<string, unknown>> };
  return json.$defs?.[id] ?? json;
}
