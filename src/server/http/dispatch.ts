import type { Runtime } from "@/server/runtime";
import { handleRoute } from "./handle";
import { allowHeader, methodNotAllowed, notFoundRoute, optionsResponse } from "./next";
import { API_PREFIX, type AnyRoute } from "./route";

export type RouteMatch =
  | { kind: "route"; route: AnyRoute; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: string }
  | { kind: "options"; allow: string }
  | { kind: "not_found" };

/**
 * Matches a method and path against route declarations the way Next.js matches files under
 * src/app/api/v1 (a contract test keeps the two in step).
 */
export function matchRoute(routes: readonly AnyRoute[], method: string, pathname: string): RouteMatch {
  if (!pathname.startsWith(API_PREFIX + "/")) return { kind: "not_found" };
  const segments = pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
  const matches = routes.flatMap((route) => {
    const params = matchTemplate(route.path, segments);
    return params ? [{ route, params }] : [];
  });
  if (matches.length === 0) return { kind: "not_found" };
  // Static segments win over parameters, as in Next.js (`/webhook/failed` before `/webhook/{id}`).
  const best = Math.max(...matches.map((m) => staticSegments(m.route.path)));
  const candidates = matches.filter((m) => staticSegments(m.route.path) === best);
  // The Allow header only when it is answered (a route file computes it once; here it would be per request).
  const allow = () => allowHeader(candidates.map((m) => m.route.method));
  if (method === "OPTIONS") return { kind: "options", allow: allow() };
  // Next.js answers HEAD with the GET export.
  const match = candidates.find((m) => m.route.method === (method === "HEAD" ? "GET" : method));
  if (!match) return { kind: "method_not_allowed", allow: allow() };
  return { kind: "route", ...match };
}

/** Drives the real pipeline without a server: used by integration tests and benchmarks. */
export function dispatch(runtime: Runtime, routes: readonly AnyRoute[], request: Request): Promise<Response> {
  const match = matchRoute(routes, request.method, new URL(request.url).pathname);
  if (match.kind === "not_found") return Promise.resolve(notFoundRoute());
  if (match.kind === "method_not_allowed") return Promise.resolve(methodNotAllowed(match.allow));
  if (match.kind === "options") return Promise.resolve(optionsResponse(match.allow));
  const answered = handleRoute(runtime, match.route, request, match.params);
  // As Next.js answers HEAD: the GET answer's status and headers, without its body.
  return request.method === "HEAD" ? answered.then((response) => new Response(null, response)) : answered;
}

function matchTemplate(template: string, segments: string[]): Record<string, string> | null {
  const parts = template.split("/").filter(Boolean);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i]!;
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) params[name] = safeDecode(segment);
    else if (part !== segment) return null;
  }
  return params;
}

function staticSegments(template: string): number {
  return template.split("/").filter((part) => part && !part.startsWith("{")).length;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
