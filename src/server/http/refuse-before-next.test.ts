import { createServer, request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseBeforeNext } from "./refuse-before-next";

// A real HTTP server whose request listener stands in for Next.js's: refused requests must never reach it.
let port: number;
let reached = 0;
const server = createServer((_request, response) => {
  reached++;
  response.end("next");
});

function send(method: string, headers: OutgoingHttpHeaders = {}, path = "/api/v1/payment") {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, method, path, headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  refuseBeforeNext({ trustedProxyHops: 0 });
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

  it("lets every other request through to the listener", async () => {
    const before = reached;
    const response = await send("GET", { authorization: "Bearer sk_live_a" });
    expect(response.status).toBe(200);
    expect(response.body).toBe("next");
    expect(reached).toBe(before + 1);
  });
});
