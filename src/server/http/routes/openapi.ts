import { z } from "zod";
import type { OpenApiDocument } from "@/server/openapi/document";
import { defineRoute } from "../route";

const openApiDocumentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
  webhooks: z.record(z.string(), z.unknown()),
  components: z.record(z.string(), z.unknown()),
});

/**
 * GET /api/v1/openapi.json – this API described as OpenAPI 3.1, generated from the route declarations. The
 * document is handed in (routes/index.ts builds it from the list this route belongs to), so this file does
 * not import the list.
 */
export function openApiRoute(document: () => OpenApiDocument) {
  return defineRoute({
    operationId: "getOpenApiDocument",
    method: "GET",
    path: "/openapi.json",
    summary: "This API as an OpenAPI 3.1 document",
    description: "Generated from the same schemas that validate requests; rendered for humans at /docs.",
    tags: ["Meta"],
    auth: "none",
    responses: { 200: { description: "The OpenAPI 3.1 document.", schema: openApiDocumentSchema } },
    handler: async () => ({ status: 200, body: document(), headers: { "cache-control": "public, max-age=300" } }),
  });
}
