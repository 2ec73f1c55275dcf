import { newId } from "@/lib/ids";
import { observeHttpRequest } from "@/server/metrics/observe";
import type { Runtime } from "@/server/runtime";
import { tracingEnabled, withSpan } from "@/server/tracing/span";
import { ServiceError } from "@/server/services/errors";
import { bareProblem, handleRoute } from "./handle";
import { API_PREFIX, type AnyRoute, type HttpMethod } from "./route";

export type RouteMatch =
  | { kind: "route"; route: AnyRoute; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: string }
  | { kind: "options"; allow: string }
  | { kind: "not_found" };

/**
 * Answers one /api/v1 request from the route declarations: the only route handler under src/app/api/v1 (the
 * catch-all) calls this, and so do the integration tests and the pipeline benchmark. Unknown path → 404
 * whatever the method; known path, undeclared method → 405 with `Allow`; OPTIONS → 204 with `Allow`; HEAD →
 * the GET answer without its body (docs/decisions.md, "OPTIONS, HEAD and Allow"). The runtime may be given
 * lazily: a 404, 405 or OPTIONS needs no database, and a runtime that cannot open is a 503.
 */
export async function dispatch(
  runtime: Runtime | (() => Promise<Runtime>),
  routes: readonly AnyRoute[],
  request: Request,
): Promise<Response> {
  const started = performance.now();
  const match = matchRoute(routes, request.method, new URL(request.url).pathname);
  const route = match.kind === "route" ? match.route.path : "unmatched";
  const response = tracingEnabled() ? await answerTraced(runtime, match, request, route) : await answer(runtime, match, request);
  // The declared template, never the raw path: one series per route, whatever ids come in (docs/operations.md).
  observeHttpRequest(request.method, route, response.status, (performance.now() - started) / 1000);
  return response;
}

/** The request's span (docs/operations.md, "Traces"), named by its method and route template. */
function answerTraced(runtime: Runtime | (() => Promise<Runtime>), match: RouteMatch, request: Request, route: string): Promise<Response> {
  const attributes = { "http.request.method": request.method, "http.route": route };
  return withSpan(`${request.method} ${route}`, { kind: "server", attributes }, async (span) => {
    const answered = await answer(runtime, match, request);
    span?.setAttribute("http.response.status_code", answered.status);
    return answered;
  });
}

async function answer(runtime: Runtime | (() => Promise<Runtime>), match: RouteMatch, request: Request): Promise<Response> {
  if (match.kind === "not_found") return notFoundRoute();
  if (match.kind === "method_not_allowed") return methodNotAllowed(match.allow);
  if (match.kind === "options") return optionsResponse(match.allow);
  let opened: Runtime;
  try {
    opened = typeof runtime === "function" ? await runtime() : runtime;
  } catch {
    return unavailable();
  }
  const answered = await handleRoute(opened, match.route, request, match.params);
  return request.method === "HEAD" ? new Response(null, answered) : answered;
}

/** Matches a method and path against the route declarations, static segments before parameters. */
export function matchRoute(routes: readonly AnyRoute[], method: string, pathname: string): RouteMatch {
  if (!pathname.startsWith(API_PREFIX + "/")) return { kind: "not_found" };
  const segments = pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
  let best = -1;
  let candidates: { template: Template; params: Record<string, string> }[] = [];
  for (const template of templatesOf(routes)) {
    if (template.staticCount < best) continue;
    const params = matchTemplate(template, segments);
    if (!params) continue;
    // Static segments win over parameters (`/webhook/failed` before `/webhook/{id}`).
    if (template.staticCount > best) [best, candidates] = [template.staticCount, []];
    candidates.push({ template, params });
  }
  if (candidates.length === 0) return { kind: "not_found" };
  const allow = () => allowHeader(candidates.map((candidate) => candidate.template.route.method));
  if (method === "OPTIONS") return { kind: "options", allow: allow() };
  const wanted = method === "HEAD" ? "GET" : method;
  const match = candidates.find((candidate) => candidate.template.route.method === wanted);
  if (!match) return { kind: "method_not_allowed", allow: allow() };
  return { kind: "route", route: match.template.route, params: match.params };
}

/** RFC 9110 `Allow`: the declared methods, HEAD where GET is declared, and OPTIONS; sorted. */
export function allowHeader(declared: readonly HttpMethod[]): string {
  const methods = new Set<string>([...declared, "OPTIONS"]);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort().join(", ");
}

interface Template {
  route: AnyRoute;
  /** Each segment: a literal, or `{ param }` for a `{name}` placeholder. */
  parts: (string | { param: string })[];
  staticCount: number;
}

// Split once per list of declarations, not per request.
const compiled = new WeakMap<readonly AnyRoute[], Template[]>();

function templatesOf(routes: readonly AnyRoute[]): Template[] {
  let templates = compiled.get(routes);
  if (!templates) {
    templates = routes.map((route) => {
      const parts = route.path.split("/").filter(Boolean).map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return name ? { param: name } : part;
      });
      return { route, parts, staticCount: parts.filter((part) => typeof part === "string").length };
    });
    compiled.set(routes, templates);
  }
  return templates;
}

function matchTemplate(template: Template, segments: string[]): Record<string, string> | null {
  if (template.parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of template.parts.entries()) {
    const segment = segments[i]!;
    if (typeof part === "string") {
      if (part !== segment) return null;
    } else {
      params[part.param] = safeDecode(segment);
    }
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function optionsResponse(allow: string): Response {
  return new Response(null, { status: 204, headers: { allow, "x-request-id": newId("request") } });
}

function methodNotAllowed(allow: string): Response {
  return bareProblem(new ServiceError("method_not_allowed", `Use one of: ${allow}.`, { headers: { allow } }));
}

function notFoundRoute(): Response {
  return bareProblem(new ServiceError("not_found", "No such endpoint. See /api/v1/openapi.json."));
}

function unavailable(): Response {
  return bareProblem(
    new ServiceError("service_unavailable", "The service is starting or its database is unavailable.", {
      headers: { "retry-after": "5" },
    }),
  );
}
