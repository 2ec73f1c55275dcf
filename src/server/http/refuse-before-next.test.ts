import { createServer, request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@/server/log";
import { enableMetrics } from "@/server/metrics/observe";
import { refusedRequests } from "@/server/metrics/registry";
import { RateLimits } from "@/server/rate-limit/limits";
import { refuseBeforeNext } from "./refuse-before-next";

// A real HTTP server whose request listener stands in for Next.js's: refused requests must never reach it.
let port: number;
let reached = 0;
const server = createServer((_request, response) => {
  reached++;
  response.end("next");
});

// The process's logger and in-memory rate-limit counters, as the server's runtime hands them over.
const logs: string[] = [];
const log = createLogger("info", new Writable({ write: (chunk, _encoding, done) => (logs.push(String(chunk)), done()) }));
const PER_IP = 3;
let nextAddress = 1;
const context = { log, limits: new RateLimits(undefined, () => {}), perIpPerSecond: PER_IP };

function send(method: string, headers: OutgoingHttpHeaders = {}, path = "/api/v1/payment") {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    // No peer address is recorded here, so the last X-Forwarded-For entry is the client: one address per request
    // unless a test names its own, so that budgets do not carry over between tests.
    const from = { "x-forwarded-for": `10.0.${Math.floor(nextAddress / 250)}.${nextAddress++ % 250}`, ...headers };
    httpRequest({ host: "127.0.0.1", port, method, path, headers: from }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  enableMetrics();
  refuseBeforeNext({ trustedProxyHops: 0, context: async () => context });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("requests refused before Next.js", () => {
  it("TRACE answers 405 problem+json with Allow, from the first request on", async () => {
    const before = reached;
    const response = await send("TRACE");
    expect(response.status).toBe(405);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(response.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(response.body)).toMatchObject({ status: 405, code: "method_not_allowed" });
    expect(reached).toBe(before);
  });

  it("TRACK never reaches the listener either (Node's HTTP parser does not know it: a bare 400)", async () => {
    const before = reached;
    expect((await send("TRACK")).status).toBe(400);
    expect(reached).toBe(before);
  });

  it("two Authorization headers answer 400 naming the header", async () => {
    const before = reached;
    const response = await send("GET", { authorization: ["Bearer sk_live_a", "Bearer sk_live_b"] as unknown as string });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "headers.authorization", message: "is given more than once" }],
    });
    expect(reached).toBe(before);
  });

  it("a cross-origin POST to a page (a server action) answers 403, X-Forwarded-Host not trusted without a proxy", async () => {
    const before = reached;
    const action = { "next-action": "abc123", "content-type": "text/plain;charset=UTF-8" };
    const refused = await send("POST", { ...action, origin: "https://evil.example" }, "/dashboard/settings");
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "forbidden" });
    const forged = await send("POST", { ...action, origin: "https://evil.example", "x-forwarded-host": "evil.example" }, "/dashboard");
    expect(forged.status).toBe(403);
    expect(reached).toBe(before);
    const sameOrigin = await send("POST", { ...action, origin: `http://127.0.0.1:${port}` }, "/dashboard");
    expect(sameOrigin.status).toBe(200);
    expect(reached).toBe(before + 1);
  });

  it.each(["/api/v1/checkout/%", "/api/v1/invoice/%zz", "/api/trpc/%", "/api/auth/%", "/api/v1/checkout/%E0%A4%A"])(
    "a path that is not valid percent-encoding (%s) answers 400 problem+json with a request id, logged and counted",
    async (path) => {
      const before = reached;
      const counted = await refusals("path_encoding", "400");
      const response = await send("GET", {}, path);
      expect(response.status).toBe(400);
      expect(response.headers["content-type"]).toBe("application/problem+json");
      const problem = JSON.parse(response.body);
      expect(problem).toMatchObject({ status: 400, code: "validation_failed", errors: [{ path: "path" }] });
      expect(response.headers["x-request-id"]).toBe(problem.requestId);
      expect(reached).toBe(before);
      expect(await refusals("path_encoding", "400")).toBe(counted + 1);
      const line = logs.map((text) => JSON.parse(text)).find((entry) => entry.requestId === problem.requestId);
      expect(line).toMatchObject({ msg: "request refused", reason: "path_encoding", status: 400, method: "GET" });
      // The path a client typed is not logged (it may be a checkout link's capability).
      expect(JSON.stringify(line)).not.toContain(path);
    },
  );

  it("a page's malformed path answers a small HTML page; a valid encoding and a bad query string pass", async () => {
    const before = reached;
    const page = await send("GET", {}, "/pay/%");
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("This address is malformed");
    expect(page.body).toContain(String(page.headers["x-request-id"]));
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(reached).toBe(before);
    expect((await send("GET", {}, "/pay/inv_%41%C3%A9")).status).toBe(200);
    expect((await send("GET", {}, "/api/v1/payment?q=%zz")).status).toBe(200);
    expect(reached).toBe(before + 2);
  });

  it("refusals count against the client address's per-IP budget: over it, 429 with Retry-After", async () => {
    const from = { "x-forwarded-for": "192.0.2.77" };
    const statuses: number[] = [];
    for (let i = 0; i < PER_IP * 2 + 2; i++) statuses.push((await send("GET", from, "/api/v1/invoice/%zz")).status);
    expect(statuses.slice(0, PER_IP * 2)).toEqual(Array(PER_IP * 2).fill(400));
    const limited = await send("GET", from, "/api/v1/invoice/%zz");
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toMatchObject({ code: "rate_limited" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(await refusals("path_encoding", "429")).toBeGreaterThanOrEqual(1);
    // Another address is not held back.
    expect((await send("GET", { "x-forwarded-for": "192.0.2.78" }, "/api/v1/invoice/%zz")).status).toBe(400);
  });

  it("lets every other request through to the listener", async () => {
    const before = reached;
    const response = await send("GET", { authorization: "Bearer sk_live_a" });
    expect(response.status).toBe(200);
    expect(response.body).toBe("next");
    expect(reached).toBe(before + 1);
  });
});

async function refusals(reason: string, status: string): Promise<number> {
  const { values } = await refusedRequests.get();
  return values.find((value) => value.labels.reason === reason && value.labels.status === status)?.value ?? 0;
}
