import { newId } from "@/lib/ids";
import { getRuntime } from "@/server/runtime";
import { ServiceError } from "@/server/services/errors";
import { bareProblem, handleRoute } from "./handle";
import { HTTP_METHODS, type AnyRoute, type HttpMethod } from "./route";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type NextHandler = (request: Request, context: RouteContext) => Promise<Response>;

// Which declaration each exported handler serves: the contract test imports every route file and reads
// this back, so "a route file without a declaration" and "a declaration without a route file" both show.
const servedRoutes = new WeakMap<NextHandler, AnyRoute>();

/** The route declaration a `route.ts` export serves, or undefined for a 405 stub or a foreign function. */
export function servedRoute(handler: unknown): AnyRoute | undefined {
  return typeof handler === "function" ? servedRoutes.get(handler as NextHandler) : undefined;
}

/**
 * The exports of one `route.ts` file: a handler for each declared method, a 405 problem with `Allow` for
 * every other method (so a wrong method answers in the same problem+json shape as everything else), and
 * OPTIONS. Without our OPTIONS, Next.js would answer one listing every exported stub, with no x-request-id.
 * HEAD is left to Next.js, which answers it with the GET export and drops the body.
 */
export function routeHandlers(...routes: AnyRoute[]): Record<HttpMethod | "OPTIONS", NextHandler> {
  const allow = allowHeader(routes.map((route) => route.method));
  const handlers = {} as Record<HttpMethod | "OPTIONS", NextHandler>;
  handlers.OPTIONS = async () => optionsResponse(allow);
  for (const method of HTTP_METHODS) {
    const route = routes.find((candidate) => candidate.method === method);
    if (route) {
      const handler: NextHandler = async (request, context) => {
        const runtime = await getRuntimeOrNull();
        if (!runtime) return unavailable();
        return handleRoute(runtime, route, request, await context.params);
      };
      servedRoutes.set(handler, route);
      handlers[method] = handler;
    } else {
      handlers[method] = async () => methodNotAllowed(allow);
    }
  }
  return handlers;
}

/** RFC 9110 `Allow`: the declared methods, HEAD where GET is declared, and OPTIONS; sorted, as Next.js does. */
export function allowHeader(declared: readonly HttpMethod[]): string {
  const methods = new Set<string>([...declared, "OPTIONS"]);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort().join(", ");
}

export function optionsResponse(allow: string): Response {
  return new Response(null, { status: 204, headers: { allow, "x-request-id": newId("request") } });
}

export function methodNotAllowed(allow: string): Response {
  return bareProblem(
    new ServiceError("method_not_allowed", `Use one of: ${allow}.`, { headers: { allow } }),
  );
}

export function notFoundRoute(): Response {
  return bareProblem(new ServiceError("not_found", "No such endpoint. See /api/v1/openapi.json."));
}

async function getRuntimeOrNull() {
  try {
    return await getRuntime();
  } catch {
    return null;
  }
}

function unavailable(): Response {
  return bareProblem(
    new ServiceError("service_unavailable", "The service is starting or its database is unavailable.", {
      headers: { "retry-after": "5" },
    }),
  );
}
