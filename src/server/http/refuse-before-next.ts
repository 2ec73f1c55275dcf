import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { newId } from "@/lib/ids";
import { observeRefusedRequest } from "@/server/metrics/observe";
import { clientIp } from "@/server/net/client-ip";
import { ipPolicy, type RateLimits } from "@/server/rate-limit/limits";
import { RateLimitedError, ValidationError } from "@/server/services/errors";
import { sameOriginHost } from "@/server/auth/same-origin";
import { PROBLEM_CONTENT_TYPE, problemBody, type Problem } from "./problem";
import { refusalPage } from "./refusal-page";

/**
 * Requests refused at the HTTP server, before Next.js sees them (docs/decisions.md, "Refused before Next.js"):
 * - `TRACE`: the Fetch standard forbids it, so Next.js fails building the `Request` of any route and answers 500
 *   with a logged stack. Refused with 405. (`TRACK`, also forbidden, never gets this far: Node's HTTP parser does
 *   not know the method and answers a bare 400 itself; CONNECT is Node's `connect` event, not a request.)
 * - A path that is not valid percent-encoding (`/pay/%`, `/api/v1/invoice/%zz`, bytes that are not UTF-8):
 *   Next.js decodes each dynamic segment, throws, and answers a plain-text 500. Refused with 400: problem+json
 *   under /api/, a small HTML page elsewhere (a person followed a broken link).
 * - A cross-origin POST to a page (a server action, or a form posted to one): Next.js's own origin check throws,
 *   which answers 500. Refused with 403 here, comparing `Origin` with the host the client asked for
 *   (`sameOriginHost` in auth/same-origin.ts: `X-Forwarded-Host` only when TRUSTED_PROXY_HOPS says a proxy sets it).
 * - Two `Authorization` headers: Node keeps the first in `request.headers` and Next.js passes that on, so the
 *   request would authenticate as whichever came first. Ambiguous: refused with 400.
 *
 * Every refusal is answered like any other request: an `x-request-id`, one log line, the
 * `http_refused_requests_total` counter, and the client address's per-IP budget (RATE_LIMIT_PER_IP), so a
 * scanner cannot send them for free; over that budget the answer is a 429.
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

/** What a refusal needs from the process: its logger and rate-limit counters (the runtime's, in the server). */
export interface RefusalContext {
  log: Logger;
  limits: RateLimits;
  /** RATE_LIMIT_PER_IP: refusals count against the client address's default budget. */
  perIpPerSecond: number;
}

export function refuseBeforeNext(options: { trustedProxyHops: number; context: () => Promise<RefusalContext> }): void {
  if (registry[INSTALLED]) return;
  registry[INSTALLED] = true;
  subscribe("http.server.request.start", (message) => {
    const { server } = message as { server?: Server };
    if (server && !guarded.has(server)) guard(server, options);
  });
}

function guard(server: Server, options: { trustedProxyHops: number; context: () => Promise<RefusalContext> }) {
  guarded.add(server);
  const listeners = server.listeners("request") as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const refusal = refusalOf(request, options.trustedProxyHops);
    if (refusal) return void answer(request, response, refusal, options);
    for (const listener of listeners) listener.call(server, request, response);
  });
}

/** Why a request was refused: the `reason` label of `http_refused_requests_total` and of the log line. */
export type RefusalReason = "method" | "path_encoding" | "two_authorizations" | "cross_origin_post";

interface Refusal {
  reason: RefusalReason;
  status: number;
  problem: Problem;
  headers?: Record<string, string>;
  /** Answered as an HTML page (a path a person may have followed), not problem+json. */
  page?: boolean;
}

export function refusalOf(request: IncomingMessage, trustedProxyHops: number): Refusal | null {
  if (REFUSED_METHODS.has(request.method ?? "")) {
    const problem = problemBody("method_not_allowed", `${request.method} is not supported.`, newId("request"));
    return { reason: "method", status: 405, problem, headers: { allow: ALLOWED } };
  }
  const path = pathOf(request.url ?? "/");
  if (!decodesAsUtf8(path)) {
    const error = new ValidationError(
      [{ path: "path", message: "is not valid percent-encoding (a % must start %XX, and the bytes must be UTF-8)" }],
      "The address is malformed: check the link.",
    );
    const problem = problemBody(error.code, error.detail, newId("request"), error.errors);
    return { reason: "path_encoding", status: 400, problem, page: !path.startsWith("/api/") };
  }
  let authorizations = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]!.toLowerCase() === "authorization") authorizations++;
  }
  if (authorizations > 1) return { reason: "two_authorizations", status: 400, problem: ambiguousAuthorization().problem };
  if (request.method === "POST" && !path.startsWith("/api/") && isCrossOriginPost(request, trustedProxyHops)) {
    return { reason: "cross_origin_post", status: 403, problem: problemBody("forbidden", "Cross-origin requests are refused.", newId("request")) };
  }
  return null;
}

/** The request target's path: an origin-form URL up to its query (an absolute-form one from its path on). */
function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  return path.startsWith("/") ? path : path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "") || "/";
}

/** What Next.js does to every dynamic segment (decodeURIComponent), without the throw. */
function decodesAsUtf8(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
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

/**
 * Counts the refusal against the client address (over the budget it becomes a 429), logs it and answers. The
 * log line has no path: a refused path is whatever the client typed (a checkout link's invoice id, say).
 */
async function answer(request: IncomingMessage, response: ServerResponse, refusal: Refusal, options: { trustedProxyHops: number; context: () => Promise<RefusalContext> }) {
  let answered = refusal;
  let log: Logger | undefined;
  try {
    const context = await options.context();
    log = context.log;
    const ip = clientIp(new Request("http://refused.invalid/", { headers: headersOf(request) }), options.trustedProxyHops);
    await context.limits.consume([{ policy: ipPolicy(context.perIpPerSecond), subject: ip }]);
  } catch (error) {
    if (error instanceof RateLimitedError) {
      answered = { ...refusal, status: 429, headers: error.options.headers, problem: problemBody("rate_limited", error.detail, refusal.problem.requestId) };
    } else {
      // No runtime (its database is down): the refusal is still answered; the budget is not counted.
      log?.warn({ err: error, requestId: refusal.problem.requestId }, "refusal not counted");
    }
  }
  observeRefusedRequest(refusal.reason, answered.status);
  log?.info({ requestId: refusal.problem.requestId, method: request.method, reason: refusal.reason, status: answered.status }, "request refused");
  refuse(response, answered);
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

function refuse(response: ServerResponse, refusal: Refusal) {
  const common = { "cache-control": "no-store", "x-request-id": refusal.problem.requestId, ...refusal.headers };
  if (refusal.page) {
    const page = refusalPage(refusal.status, refusal.problem);
    response.writeHead(refusal.status, { ...page.headers, ...common });
    response.end(page.html);
    return;
  }
  response.writeHead(refusal.status, { "content-type": PROBLEM_CONTENT_TYPE, ...common });
  response.end(JSON.stringify(refusal.problem));
}
