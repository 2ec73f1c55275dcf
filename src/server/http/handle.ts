import { newId } from "@/lib/ids";
import { unredacted } from "@/server/log";
import type { Runtime } from "@/server/runtime";
import { inTransaction, type Actor, type ServiceContext } from "@/server/services/context";
import { createServiceContext, noteWrite } from "@/server/services/create-context";
import { databaseUnavailableError } from "@/server/services/database-unavailable";
import { isServiceError, ServiceError } from "@/server/services/errors";
import { validateInput } from "@/server/services/validate";
import { authenticateApiKey } from "./authenticate";
import { lackedPermission, refuseOutsideScope } from "./scope";
import { ClientClosedRequestError, readJsonBody, streamedBody } from "./body";
import { idempotencyKeyOf, runIdempotently } from "./idempotency";
import { problemBody, problemResponse } from "./problem";
import { clientIp } from "@/server/net/client-ip";
import { fromHeaders } from "@/server/net/request-client";
import { queryObject } from "./query";
import { ipPolicy, rateLimitsFor, type RateLimits } from "@/server/rate-limit/limits";
import { bodyRateLimitChecks, rateLimitChecks } from "./rate-limit";
import { withSpan } from "@/server/tracing/span";
import type { AnyRoute, Reply } from "./route";

/**
 * The REST pipeline every route goes through: request id → authentication → rate limits → the route's permission
 * (a restricted key's scopes) → input validation → Idempotency-Key claim (merchants' POSTs) → handler → JSON or problem+json response, and one
 * structured log line. Limits come before the body is read, so a throttled caller costs no parsing and no
 * database work; only a route limit that depends on the body (`rateLimitWhen`) is counted after validation.
 */
export async function handleRoute(
  runtime: Runtime,
  route: AnyRoute,
  request: Request,
  rawParams: Record<string, string | string[] | undefined>,
): Promise<Response> {
  const requestId = newId("request");
  const started = performance.now();
  const ip = clientIp(request, runtime.env.TRUSTED_PROXY_HOPS);
  const client = fromHeaders(request.headers, ip);
  const limits = rateLimitsFor(runtime);
  let actor: Actor = { type: "anonymous", ip };
  let limitHeaders: Record<string, string> = {};
  let response: Response;
  try {
    if (route.auth === "api_key") {
      const anonymous = createServiceContext(runtime, actor, requestId);
      actor = await withSpan("authenticate", {}, () => authenticate(anonymous, limits, request, ip));
    }
    limitHeaders = await limits.consume(rateLimitChecks(runtime, route, actor, ip));
    const ctx = createServiceContext(runtime, actor, requestId, client);
    // A restricted key outside its scopes is refused before its input is read: one set lookup, and the refusal's
    // audit row (one per key and permission per 15 minutes: scope.ts).
    if (lackedPermission(route, actor)) await refuseOutsideScope(runtime, ctx, route, request.method);
    const params = route.params ? validateInput(route.params, rawParams, "params") : undefined;
    const query = route.query ? validateInput(route.query, queryObject(new URL(request.url)), "query") : undefined;
    const rawBody = route.body ? ((await readJsonBody(request)) ?? {}) : undefined;
    const body = route.body ? validateInput(route.body, rawBody, "body") : undefined;
    // A permission this body needs beyond the route's (a profile change that moves the webhooks: `alsoNeeds`).
    if (lackedPermission(route, actor, body)) await refuseOutsideScope(runtime, ctx, route, request.method, body);
    const stream = route.streamedBody ? streamedBody(request, route.streamedBody) : undefined;
    limitHeaders = await limits.consume(bodyRateLimitChecks(route, actor, ip, body), limitHeaders);
    // The service verb's span, named by the route's operationId; its SQL and outbox row are its children.
    const execute = (db?: ServiceContext["db"]) =>
      withSpan(route.operationId, {}, () => route.handler({ ctx: db ? inTransaction(ctx, db) : ctx, params, query, body, request, runtime, stream }));
    // Claimed only after validation: an invalid request never occupies a key (the client fixes it and retries).
    const apiKey = actor.type === "api_key" ? actor : undefined;
    const key = idempotencyKeyOf(request, route, apiKey?.merchantId);
    const reply = key && apiKey
      ? await runIdempotently({ runtime, route, request, merchantId: apiKey.merchantId, livemode: apiKey.livemode, key, body: rawBody, requestId }, execute)
      : await execute();
    response = jsonResponse(reply, requestId, limitHeaders);
  } catch (error) {
    response = errorResponse(runtime, error, requestId, route);
    // A refusal keeps its own (a 429's say why); any other error tells the caller where its budget stands too.
    for (const [name, value] of Object.entries(limitHeaders)) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
  }
  // After the change is committed (or refused): this caller's next reads see it even from a replica.
  if (request.method !== "GET" && request.method !== "HEAD") noteWrite(runtime, actor);
  // Only values built here, never input: no redaction needed (and it costs more than the line).
  unredacted(runtime.log).info(
    {
      requestId,
      method: request.method,
      route: route.path,
      status: response.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      merchantId: "merchantId" in actor ? actor.merchantId : undefined,
    },
    "request",
  );
  return response;
}

/** Failed authentications count against the caller's IP, so guessing keys is throttled like a public route. */
async function authenticate(anonymous: ServiceContext, limits: RateLimits, request: Request, ip: string) {
  try {
    return await authenticateApiKey(anonymous, request);
  } catch (error) {
    if (isServiceError(error) && error.status === 401) {
      await limits.consume([{ policy: ipPolicy(anonymous.env.RATE_LIMIT_PER_IP), subject: ip }]);
    }
    throw error;
  }
}

/** A handler's reply as JSON; the rate-limit fields go in with the rest (setting them afterwards costs more). */
export function jsonResponse(reply: Reply, requestId: string, limitHeaders: Record<string, string> = {}): Response {
  const headers: Record<string, string> = {
    "cache-control": "no-store",
    ...limitHeaders,
    ...reply.headers,
    "x-request-id": requestId,
  };
  if (reply.body === undefined) return new Response(null, { status: reply.status, headers });
  // A streamed answer (server-sent events) goes out as it is produced; the handler set its content-type.
  if (reply.body instanceof ReadableStream) return new Response(reply.body, { status: reply.status, headers });
  // A replayed problem keeps its problem+json type.
  headers["content-type"] ??= "application/json";
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers });
}

/** Known failures become their problem; anything else a bare 500 whose cause is logged, never shown. */
export function errorResponse(runtime: Runtime, error: unknown, requestId: string, route?: AnyRoute): Response {
  if (isServiceError(error)) {
    return problemResponse(problemBody(error.code, error.detail, requestId, error.errors, error.options.members), error.options.headers);
  }
  if (error instanceof ClientClosedRequestError) {
    runtime.log.info({ requestId, route: route?.path }, "client closed the request");
    // nginx's "client closed request": for the access log; the client is gone.
    return new Response(null, { status: 499, headers: { "x-request-id": requestId } });
  }
  const unavailable = databaseUnavailableError(error);
  if (unavailable) {
    // The database dropped or refused the connection: a retry will do (db/unavailable.ts), not a bug report.
    runtime.log.warn({ err: error, requestId, route: route?.path }, "database unavailable");
    return problemResponse(problemBody(unavailable.code, unavailable.detail, requestId), unavailable.options.headers);
  }
  runtime.log.error({ err: error, requestId, route: route?.path }, "unhandled error");
  return problemResponse(
    problemBody("internal_error", "Something went wrong on our side. Quote the requestId if you contact support.", requestId),
  );
}

/** A problem answer outside any route (unknown path, wrong method). */
export function bareProblem(error: ServiceError): Response {
  return problemResponse(problemBody(error.code, error.detail, newId("request"), error.errors), error.options.headers);
}
