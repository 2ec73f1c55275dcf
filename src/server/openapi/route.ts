import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { generateOpenApiDocument, type OpenApiDocument } from "./document";

const openApiDocumentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
  webhooks: z.record(z.string(), z.unknown()),
  components: z.record(z.string(), z.unknown()),
});

let cached: Promise<OpenApiDocument> | undefined;

/**
 * The document of every registered route, built once per process (it only changes with the code).
 * The registry is imported lazily: it contains this very route.
 */
export function openApiDocument(): Promise<OpenApiDocument> {
  cached ??= import("@/server/http/routes").then(({ routes }) => generateOpenApiDocument(routes));
  return cached;
}

// GET /api/v1/openapi.json – this API described as OpenAPI 3.1, generated from the route declarations
export const openApiRoute = defineRoute({
  operationId: "getOpenApiDocument",
  method: "GET",
  path: "/openapi.json",
  summary: "This API as an OpenAPI 3.1 document",
  description: "Generated from the same schemas that validate requests; rendered for humans at /docs.",
  tags: ["Meta"],
  auth: "none",
  responses: { 200: { description: "The OpenAPI 3.1 document.", schema: openApiDocumentSchema } },
  handler: async () => ({
    status: 200,
    body: await openApiDocument(),
    headers: { "cache-control": "public, max-age=300" },
  }),
});
