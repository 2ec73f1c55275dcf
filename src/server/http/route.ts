import type { z } from "zod";
import type { Runtime } from "@/server/runtime";
import type { ServiceContext } from "@/server/services/context";
import type { RateLimitPolicy } from "@/server/rate-limit/limits";
import type { ErrorCode } from "@/server/services/error-codes";
import type { InputPermission, Permission } from "@/server/auth/permissions";
import type { StreamedBodyDeclaration } from "./body";

/** Media types a route may answer with as a stream instead of a JSON body. */
export type StreamedMediaType = "text/event-stream";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const HTTP_METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export interface Reply<T = unknown> {
  status: number;
  body?: T;
  headers?: Record<string, string>;
}

export interface HandlerInput<P, Q, B> {
  ctx: ServiceContext;
  params: P;
  query: Q;
  body: B;
  /** For adapters that need a header (Idempotency-Key, If-None-Match); services never see it. */
  request: Request;
  runtime: Runtime;
  /** The body as it streams in, for a route that declares `streamedBody` (limits checked as it is read). */
  stream?: ReadableStream<Uint8Array>;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Who may call a route. `api_key`: Authorization: Bearer sk_live_… (or a restricted `rk_…` key), and the permission
 * (src/server/auth/permissions.ts) the call needs, e.g. `payments.read`: a restricted key whose scopes do not grant
 * it gets 403 `insufficient_scope`; a secret key holds every permission. `none`: public, no permission.
 */
export type RouteAccess = { auth: "api_key"; permission: Permission } | { auth: "none"; permission?: undefined };

/**
 * One REST route, declared once: method, path, auth and permission, and the zod schemas that validate it, document
 * it (OpenAPI) and type its handler. Listed in routes/index.ts, it is served by its generated file under src/app/api/v1.
 */
export type RouteDefinition<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = RouteShape<P, Q, B> & RouteAccess;

/** A route's declaration less its access (RouteAccess). */
export interface RouteShape<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style template relative to /api/v1, e.g. `/payment/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * A stricter limit on top of the default (per key, or per IP on public routes), for routes worth
   * attacking: `{ name: "register", by: "ip", limit: 10, windowSeconds: 3600 }`. Over it → 429.
   */
  rateLimit?: RateLimitPolicy;
  /**
   * Counts `rateLimit` only for requests whose validated body this accepts (a test send, not its dry run).
   * Checked once the body is parsed; without it the route's limit is counted before the body is read.
   */
  rateLimitWhen?: (body: Infer<B>) => boolean;
  /** A permission the body needs beyond the route's when it does what it guards (auth/permissions.ts, InputPermission). */
  alsoNeeds?: InputPermission<Infer<B>>;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A non-JSON body the handler reads as a stream (`stream`) instead of `body`: its media type, its own
   * size limit (the 64 KiB JSON limit does not apply) and an example for the OpenAPI document. Such a route
   * declares no `body` and `idempotency: false` (a streamed body cannot be fingerprinted).
   */
  streamedBody?: StreamedBodyDeclaration & { description: string; example: string };
  /** A valid request body, shown in the OpenAPI document (a contract test parses it with `body`). */
  bodyExample?: B extends z.ZodType ? z.input<B> : never;
  /**
   * Successful responses by status, with the schema of their JSON body (none for empty bodies) and
   * optionally an example of it (documented; a contract test parses it with `schema`). A streamed answer
   * declares its `mediaType` (`text/event-stream`): `schema` is then the JSON of each event's `data`, and
   * the handler's `body` a ReadableStream sent as it is produced.
   */
  responses: Record<number, { description: string; schema?: z.ZodType; example?: unknown; mediaType?: StreamedMediaType }>;
  /** Error codes this route can answer with, beyond the ones every route can (documented in OpenAPI). */
  errors?: readonly ErrorCode[];
  /**
   * Idempotency-Key handling when this is a POST by a merchant (docs/idempotency.md). Default
   * `{ store: "final" }`: 2xx answers and final 4xx answers are kept 24 h and replayed. `"success"`: only
   * 2xx answers are kept (any error releases the key). `keep`: what of a 2xx body is stored and replayed, for an
   * answer that shows a secret once (SECRET_SHOWN_ONCE): the replay is the same answer with the secret null, so a
   * retried request makes nothing twice and never shows the secret again. `false`: the header is ignored.
   * `atomic: true`, for handlers that only touch the database: the handler runs in one transaction with
   * the stored answer (services/idempotency/atomic.ts); a concurrent duplicate waits for the first and replays it.
   */
  idempotency?: { store: "final" | "success"; atomic?: boolean; keep?: (body: unknown) => unknown } | false;
  handler: (input: HandlerInput<Infer<P>, Infer<Q>, Infer<B>>) => Promise<Reply>;
}

export type AnyRoute = RouteDefinition<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(route: RouteDefinition<P, Q, B>): AnyRoute {
  return route as unknown as AnyRoute;
}

export const API_PREFIX = "/api/v1";
