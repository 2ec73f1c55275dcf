import { z } from "zod";
import { checkReadiness } from "@/server/services/health/check-readiness";
import { defineRoute } from "../route";

const healthSchema = z.object({ status: z.enum(["ok", "ready"]) });

// GET /api/v1/health – the process is up (liveness)
export const health = defineRoute({
  operationId: "getHealth",
  method: "GET",
  path: "/health",
  summary: "Liveness: the process answers",
  tags: ["Health"],
  auth: "none",
  responses: { 200: { description: "The process is up.", schema: healthSchema, example: { status: "ok" } } },
  handler: async () => ({ status: 200, body: { status: "ok" } }),
});

// GET /api/v1/health/ready – the database answers (readiness)
export const healthReady = defineRoute({
  operationId: "getReadiness",
  method: "GET",
  path: "/health/ready",
  summary: "Readiness: the database answers",
  tags: ["Health"],
  auth: "none",
  responses: { 200: { description: "Ready to serve.", schema: healthSchema, example: { status: "ready" } } },
  errors: ["service_unavailable"],
  handler: async ({ ctx }) => ({ status: 200, body: await checkReadiness({ ctx }) }),
});
