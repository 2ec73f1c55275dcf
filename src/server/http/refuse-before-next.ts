import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { newId } from "@/lib/ids";
import { ValidationError } from "@/server/services/errors";
import { sameOriginHost } from "@/server/auth/same-origin";
import { PROBLEM_CONTENT_TYPE, problemBody, type Problem } from "./problem";

/**
 * Requests refused at the HTTP server, before Next.js sees them (docs/decisions.md, "Refused before Next.js"):
 * - `TRACE`: the Fetch standard forbids it, so Next.js fails building the `Request` of any route and answers 500
 *   with a logged stack. Refused with 405. (`TRACK`, also forbidden, never gets this far: Node's HTTP parser does
 *   not know the method and answers a bare 400 itself; CONNECT is Node's `connect` event, not a request.)
 * - A cross-origin POST to a page (a server action, or a form posted to one): Next.js's own origin check throws,
 *   which answers 500. Refused with 403 here, comparing `Origin` with the host the client asked for
 *   (`sameOriginHost` in auth/same-origin.ts: `X-Forwarded-Host` only when TRUSTED_PROXY_HOPS says a proxy sets it).
 * - Two `Authorization` headers: Node keeps the first in `request.headers` and Next.js passes that on, so the
 *   request would authenticate as whichever came first. Ambiguous: refused with 400.
 *
 * How: Node publishes every request on the `http.server.request.start` diagnostics channel just before it
 * emits the server's `request` event (see peer-address.ts). On a server's first request, this wraps the
 * server's `request` listeners (Next.js's) in one that answers the refused requests itself; Node reads the
 * listener list when it emits, so the first request is already covered.
 */
const REFUSED_METHODS = new Set(["TRACE"]);
const ALLOWED = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const guarded = new WeakSet<Server>();
const INSTALLED = Symbol.for("merchant-payments.refuseBeforeNext");
const registry = globalThis as typeof globalThis & { [INSTALLED]?: boolean };

export function refuseBeforeNext(options: { trustedProxyHops: number }): void {
  if (registry[INSTALLED]) return;
  registry[INSTALLED] = true;
  subscribe("http.server.request.start", (message) => {
    const { server } = message as { server?: Server };
    if (server && !guarded.has(server)) guard(server, options.trustedProxyHops);
  });
}

function guard(server: Server, trustedProxyHops: number) {
  guarded.add(server);
  const listeners = server.listeners("request") as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const refusal = refusalOf(request, trustedProxyHops);
    if (refusal) return refuse(response, refusal);
    for (const listener of listeners) listener.call(server, request, response);
  });
}

interface Refusal {
  status: number;
  problem: Problem;
  headers?: Record<string, string>;
}

export function refusalOf(request: IncomingMessage, trustedProxyHops: number): Refusal | null {
  if (REFUSED_METHODS.has(request.method ?? "")) {
    const problem = problemBody("method_not_allowed", `${request.method} is not supported.`, newId("request"));
    return { status: 405, problem, headers: { allow: ALLOWED } };
  }
  let authorizations = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]!.toLowerCase() === "authorization") authorizations++;
  }
  if (authorizations > 1) return { status: 400, problem: ambiguousAuthorization().problem };
  if (request.method === "POST" && !request.url?.startsWith("/api/") && isCrossOriginPost(request, trustedProxyHops)) {
    return { status: 403, problem: problemBody("forbidden", "Cross-origin requests are refused.", newId("request")) };
  }
  return null;
}

/** One shape for two Authorization headers, here and in authenticate.ts (where Fetch has joined them). */
export function ambiguousAuthorization() {
  const error = new ValidationError(
    [{ path: "headers.authorization", message: "is given more than once" }],
    "Send one Authorization header, not several.",
  );
  return { error, problem: problemBody(error.code, error.detail, newId("request"), error.errors) };
}

function isCrossOriginPost(request: IncomingMessage, trustedProxyHops: number): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false; // not from a browser's form or fetch: Next.js decides
  const host = sameOriginHost((name) => headerText(request.headers[name]), trustedProxyHops);
  try {
    return new URL(origin).host !== host;
  } catch {
    return true; // "null" (a sandboxed or privacy-sensitive context) and anything unparsable
  }
}

function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function refuse(response: ServerResponse, refusal: Refusal) {
  response.writeHead(refusal.status, {
    "content-type": PROBLEM_CONTENT_TYPE,
    "cache-control": "no-store",
    "x-request-id": refusal.problem.requestId,
    ...refusal.headers,
  });
  response.end(JSON.stringify(refusal.problem));
}
