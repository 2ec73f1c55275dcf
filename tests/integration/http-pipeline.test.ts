import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { handleRoute } from "../../src/server/http/handle";
import { defineRoute } from "../../src/server/http/route";
import { testClient, type TestClient } from "../support/client";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

describe("REST pipeline", () => {
  it("answers health and readiness", async () => {
    expect((await api.get("/health")).body).toEqual({ status: "ok" });
    expect((await api.get("/health/ready")).body).toEqual({ status: "ready" });
  });

  it("answers an unknown path with a 404 problem", async () => {
    const response = await api.get("/no/such/thing");
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("not_found");
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const response = await api.request("DELETE", "/health");
    expect(response.status).toBe(405);
    expect(response.body.code).toBe("method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("answers OPTIONS with 204, the route's Allow and an x-request-id; an unknown path with a 404", async () => {
    const confirm = await api.request("OPTIONS", "/payment/confirm");
    expect(confirm.status).toBe(204);
    expect(confirm.headers.get("allow")).toBe("OPTIONS, POST");
    expect(confirm.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await api.request("OPTIONS", "/merchant/sample_id")).headers.get("allow")).toBe("GET, HEAD, OPTIONS, PUT");
    expect((await api.request("OPTIONS", "/no/such/thing")).status).toBe(404);
  });

  it("answers HEAD as GET without the body, and refuses it with 405 where there is no GET", async () => {
    const health = await api.request("HEAD", "/health");
    expect(health.status).toBe(200);
    expect(health.text).toBe("");
    expect(health.headers.get("x-request-id")).toMatch(/^req_/);
    const confirm = await api.request("HEAD", "/payment/confirm");
    expect(confirm.status).toBe(405);
    expect(confirm.headers.get("allow")).toBe("OPTIONS, POST");
  });

  it("refuses a body over 64 KiB with 413, whatever Content-Length says", async () => {
    const big = { name: "x".repeat(70 * 1024), email: "a@example.com", password: "long enough password" };
    const response = await api.post("/merchant/register", { body: big });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe("payload_too_large");
  });

  it("refuses a non-JSON content type with 415", async () => {
    const response = await api.post("/merchant/register", {
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe("unsupported_media_type");
  });

  it("refuses malformed JSON and invalid UTF-8 with 400 malformed_json", async () => {
    const headers = { "content-type": "application/json" };
    const broken = await api.post("/merchant/register", { rawBody: '{"name": ', headers });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("malformed_json");
    const invalidUtf8 = await api.post("/merchant/register", { rawBody: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers });
    expect(invalidUtf8.status).toBe(400);
    expect(invalidUtf8.body.code).toBe("malformed_json");
  });

  it("lists every failing field, including unknown ones", async () => {
    const response = await api.post("/merchant/register", {
      body: { name: "", email: "not-an-email", password: "short", color: "blue" },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    const paths = response.body.errors.map((error: { path: string }) => error.path);
    expect(paths).toEqual(expect.arrayContaining(["body.name", "body.email", "body.password"]));
    expect(JSON.stringify(response.body.errors)).toContain("color");
  });

  it("turns an unexpected error into a bare 500, logs the cause and leaks nothing", async () => {
    const exploding = defineRoute({
      operationId: "explode",
      method: "GET",
      path: "/explode",
      summary: "test only",
      tags: [],
      auth: "none",
      responses: { 200: { description: "never", schema: z.object({}) } },
      handler: async () => {
        throw new Error("connection string postgres://user:hunter2@db");
      },
    });
    const response = await handleRoute(runtime, exploding, new Request("http://localhost/api/v1/explode"), {});
    const body = await response.json();
    expect(response.status).toBe(500);
    expect(body.code).toBe("internal_error");
    expect(JSON.stringify(body)).not.toContain("hunter2");
    expect(runtime.logs.join("\n")).toContain(body.requestId);
  });

  it("records a client that hangs up mid-body as 499 at info level, not as a 500 with an error line", async () => {
    const echo = defineRoute({
      operationId: "echo",
      method: "POST",
      path: "/echo",
      summary: "test only",
      tags: [],
      auth: "none",
      body: z.object({}),
      responses: { 200: { description: "never", schema: z.object({}) } },
      handler: async () => ({ status: 200, body: {} }),
    });
    // What Next.js hands us when the socket closes while the body streams in.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const request = new Request("http://localhost/api/v1/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await handleRoute(runtime, echo, request, {});
    expect(response.status).toBe(499);
    const requestId = response.headers.get("x-request-id")!;
    const lines = runtime.logs.filter((line) => line.includes(requestId)).map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [30, "client closed the request"],
      [30, "request"],
    ]);
  });

  it("writes one structured log line per request, with its request id", async () => {
    const response = await api.get("/health");
    const requestId = response.headers.get("x-request-id")!;
    const lines = runtime.logs.filter((line) => line.includes(requestId)).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "request", method: "GET", route: "/health", status: 200 });
  });
});
