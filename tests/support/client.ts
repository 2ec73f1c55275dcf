import { expect } from "vitest";
import { z } from "zod";
import { dispatch, matchRoute } from "../../src/server/http/dispatch";
import { routes } from "../../src/server/http/routes";
import type { Runtime } from "../../src/server/runtime";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** A JSON body (serialised here), or a raw string/bytes body sent as is. */
  body?: unknown;
  rawBody?: string | Uint8Array;
  /** API key for `Authorization: Bearer`. */
  key?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string().regex(/^[a-z][a-z0-9_]*$/),
  requestId: z.string().startsWith("req_"),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/**
 * Calls the REST API through the real route pipeline (no HTTP server) and checks every answer against
 * what the route declares: a success body must match its response schema, an error must be problem+json.
 */
export function testClient(runtime: Runtime, base = "http://localhost") {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL("/api/v1" + path, base);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers = new Headers(options.headers);
    if (options.key) headers.set("authorization", `Bearer ${options.key}`);
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    const response = await dispatch(runtime, routes, new Request(url, { method, headers, body: body as BodyInit }));
    const text = await response.text();
    // A stream (server-sent events) is text; every other answer is JSON or empty.
    const streamed = response.headers.get("content-type")?.startsWith("text/event-stream");
    const parsed = text && !streamed ? JSON.parse(text) : undefined;
    assertDeclaredShape(method, url.pathname, response, parsed);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>("GET", path, options),
    post: <T = any>(path: string, options?: RequestOptions) => request<T>("POST", path, options),
    put: <T = any>(path: string, options?: RequestOptions) => request<T>("PUT", path, options),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
  };
}

export type TestClient = ReturnType<typeof testClient>;

function assertDeclaredShape(method: string, pathname: string, response: Response, body: unknown) {
  expect(response.headers.get("x-request-id"), "every response carries x-request-id").toMatch(/^req_/);
  if (method === "HEAD") return; // the GET answer's headers without its body: nothing to parse
  if (response.status >= 400) {
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = problemSchema.parse(body);
    expect(problem.status).toBe(response.status);
    return;
  }
  const match = matchRoute(routes, method, pathname);
  if (match.kind !== "route") return;
  const declared = match.route.responses[response.status];
  expect(declared, `${method} ${match.route.path} answered ${response.status}, which it does not declare`).toBeDefined();
  if (declared?.schema && !declared.mediaType) {
    const result = declared.schema.safeParse(body);
    expect(result.success ? [] : result.error.issues, `${method} ${match.route.path} ${response.status} body matches its schema`).toEqual([]);
  }
}
