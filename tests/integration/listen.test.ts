import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../scripts/listen/forward";
import { verifyWebhook, type VerifiedWebhook } from "../../sdk/src";
import { dispatch } from "../../src/server/http/dispatch";
import { routes } from "../../src/server/http/routes";
import { testClient, type TestClient } from "../support/client";
import { recordInvoiceEvent } from "../support/event-stream";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let owner: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  owner = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/** A local receiver that verifies every post with the SDK and the secret `listen` printed. */
async function startReceiver(secret: () => string) {
  const received: VerifiedWebhook[] = [];
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        received.push(verifyWebhook(Buffer.concat(chunks), request.headers as Record<string, string>, secret()));
        response.writeHead(204).end();
      } catch (error) {
        refused.push(String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { received, refused, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => server.close() };
}

async function until(check: () => boolean, what: string, log: string[] = [], timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; listen printed:\n${log.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("npm run listen", () => {
  it("forwards each new event once, signed, across a dropped stream; never another merchant's", async () => {
    await recordInvoiceEvent(api, owner); // before listen starts: not forwarded
    await new Promise((resolve) => setTimeout(resolve, 5));
    const lines: string[] = [];
    const secret = () => /whsec_\S+/.exec(lines[0] ?? "")?.[0] ?? "";
    const receiver = await startReceiver(secret);
    // The service side goes through the real pipeline; each stream can be cut as a network drop would.
    const cuts: (() => void)[] = [];
    const apiFetch = async (request: Request) => {
      const response = await dispatch(runtime, routes, request);
      if (!response.body) return response;
      let cut!: () => void;
      const wire = new TransformStream<Uint8Array, Uint8Array>({ start: (controller) => void (cut = () => controller.error(new Error("connection reset"))) });
      cuts.push(cut);
      return new Response(response.body.pipeThrough(wire), response);
    };
    const stop = new AbortController();
    const listening = listen({ apiUrl: "http://localhost", apiKey: owner.apiKey, forwardTo: receiver.url, signal: stop.signal, print: (line) => lines.push(line), apiFetch, reconnectMs: 1_500 });
    try {
      await until(() => cuts.length === 1, "the stream", lines);
      const expected = [await recordInvoiceEvent(api, owner), await recordInvoiceEvent(api, owner)];
      await until(() => receiver.received.length === 2, "the first two events", lines);
      cuts[0]!(); // dropped mid-way; these two are recorded while it is down
      expected.push(await recordInvoiceEvent(api, owner), await recordInvoiceEvent(api, owner));
      await recordInvoiceEvent(api, other);
      await until(() => cuts.length === 2, "the reconnection", lines);
      expected.push(await recordInvoiceEvent(api, owner));
      await until(() => receiver.received.length === 5, "all five events", lines);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // nothing more (no repeat, no other merchant)
      expect(receiver.refused).toEqual([]);
      expect(receiver.received.map((event) => (event.data as { id: string }).id)).toEqual(expected);
      expect(new Set(receiver.received.map((event) => event.id)).size).toBe(5);
      expect(lines[0]).toMatch(/^Forwarding events to http:\/\/127\.0\.0\.1:\d+\/hook\. Signing secret: whsec_/);
      expect(lines.filter((line) => / → 204 /.test(line))).toHaveLength(5);
      expect(lines.some((line) => line.startsWith("Connection lost (connection reset)"))).toBe(true);
    } finally {
      stop.abort();
      await listening;
      receiver.close();
    }
  }, 60_000);

  it("stops with a message when the key is refused", async () => {
    const refused = listen({
      apiUrl: "http://localhost",
      apiKey: "sk_live_not_a_key",
      forwardTo: "http://127.0.0.1:9/hook",
      print: () => {},
      apiFetch: (request) => dispatch(runtime, routes, request),
    });
    await expect(refused).rejects.toThrow(/refused the API key/);
  });

  it("names the address and what to check when nothing answers there, and stops", async () => {
    // A port nobody listens on: the connection is refused at once.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const unreachable = listen({ apiUrl: `http://127.0.0.1:${closed}`, apiKey: owner.apiKey, forwardTo: "http://127.0.0.1:9/hook", print: () => {} });
    await expect(unreachable).rejects.toThrow(
      new RegExp(`^Could not reach the service at http://127\\.0\\.0\\.1:${closed} \\(.*ECONNREFUSED.*\\)\\. Check that it is running .* MPS_API_URL is its address`),
    );
  });

  it("names the stream's URL when the address answers but is not the service (404)", async () => {
    const elsewhere = listen({
      apiUrl: "http://localhost:8080/shop",
      apiKey: owner.apiKey,
      forwardTo: "http://127.0.0.1:9/hook",
      print: () => {},
      apiFetch: async () => new Response("Not Found", { status: 404 }),
    });
    await expect(elsewhere).rejects.toThrow(
      "http://localhost:8080/shop/api/v1/event/stream answered 404: no event stream there. Check that MPS_API_URL (http://localhost:8080/shop) is the address the service runs at, without /api/v1.",
    );
  });
});
