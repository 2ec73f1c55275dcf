import { allowHeader } from "@/server/http/dispatch";
import { bareProblem } from "@/server/http/handle";
import type { Runtime } from "@/server/runtime";
import { ServiceError } from "@/server/services/errors";
import { hasMetricsToken, renderMetrics } from "./scrape";
import { registry } from "@/server/metrics/registry";

const ALLOW = allowHeader(["GET"]);

/**
 * `GET /api/v1/metrics` (and a worker's METRICS_PORT): the Prometheus text, for `Authorization: Bearer
 * <METRICS_TOKEN>` only. Without METRICS_TOKEN it does not exist, whatever the method (the unknown-endpoint 404,
 * word for word); with it, other methods get the same 405 and OPTIONS the same 204 as a declared route. A missing
 * or wrong token is a 401 that says nothing more.
 */
export async function answerMetricsScrape(runtime: Runtime, request: Request): Promise<Response> {
  const token = runtime.env.METRICS_TOKEN;
  if (!token) return bareProblem(new ServiceError("not_found", "No such endpoint. See /api/v1/openapi.json."));
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow: ALLOW } });
  if (request.method !== "GET" && request.method !== "HEAD") {
    return bareProblem(new ServiceError("method_not_allowed", `Use one of: ${ALLOW}.`, { headers: { allow: ALLOW } }));
  }
  if (!hasMetricsToken(request, token)) {
    return bareProblem(new ServiceError("unauthenticated", "Send Authorization: Bearer <METRICS_TOKEN>.", { headers: { "www-authenticate": "Bearer" } }));
  }
  const body = request.method === "HEAD" ? null : await renderMetrics(runtime);
  return new Response(body, { status: 200, headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}
