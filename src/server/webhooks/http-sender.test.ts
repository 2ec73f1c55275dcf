import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyError, createAgentPool, MAX_RECORDED_BODY_BYTES, pinnedLookup, sendWebhook, type AgentPool, type SendInput } from "./http-sender";
import type { Resolver } from "./ssrf-guard";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const received: Received[] = [];

function handler(request: IncomingMessage, response: ServerResponse) {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const url = request.url ?? "/";
    received.push({ path: url, headers: request.headers, body: Buffer.concat(chunks).toString() });
    if (url === "/ok") {
      response.writeHead(200, { "content-type": "text/plain", "x-receiver": "yes" }).end("thanks");
    } else if (url === "/error") {
      response.writeHead(500).end("boom");
    } else if (url === "/busy") {
      response.writeHead(503, { "retry-after": "120" }).end();
    } else if (url === "/redirect") {
      response.writeHead(302, { location: "/ok" }).end();
    } else if (url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("x".repeat(100 * 1024));
    } else if (url === "/binary") {
      response.writeHead(200).end(Buffer.from([0x61, 0x00, 0x62]));
    } else if (url === "/slow") {
      // Never answers: the attempt must give up on its own.
    } else {
      response.writeHead(404).end();
    }
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

let server: Server;
let port: number;
let tlsServer: Server;
let tlsPort: number;
let tlsCert: string;
let certDir: string;

const localhostOnly: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
const base = (extra: Partial<SendInput> = {}): SendInput => ({
  url: `http://127.0.0.1:${port}/ok`,
  headers: { "webhook-id": "evt_1", "webhook-timestamp": "1", "webhook-signature": "v1,abc" },
  body: '{"type":"webhook.test"}',
  allowPrivateTargets: true,
  ...extra,
});

beforeAll(async () => {
  server = createHttpServer(handler);
  port = await listen(server);
  // A self-signed certificate for a name that no DNS knows: only the pinned address can reach it.
  certDir = mkdtempSync(path.join(tmpdir(), "webhook-tls-"));
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test",
    "-keyout", path.join(certDir, "key.pem"), "-out", path.join(certDir, "cert.pem"),
  ], { stdio: "ignore" });
  tlsCert = readFileSync(path.join(certDir, "cert.pem"), "utf8");
  tlsServer = createHttpsServer({ key: readFileSync(path.join(certDir, "key.pem")), cert: tlsCert }, handler);
  tlsPort = await listen(tlsServer);
});

afterAll(async () => {
  server.closeAllConnections();
  tlsServer.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => tlsServer.close(resolve));
  rmSync(certDir, { recursive: true, force: true });
});

describe("sendWebhook", () => {
  it("POSTs the body and headers and records status, headers, body and latency", async () => {
    const outcome = await sendWebhook(base());
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, errorClass: null, errorMessage: null, responseBody: "thanks" });
    expect(outcome.responseHeaders).toMatchObject({ "x-receiver": "yes", "content-type": "text/plain" });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    const request = received.at(-1)!;
    expect(request.body).toBe('{"type":"webhook.test"}');
    expect(request.headers).toMatchObject({
      "webhook-id": "evt_1",
      "webhook-timestamp": "1",
      "webhook-signature": "v1,abc",
      "content-type": "application/json",
    });
  });

  it("classifies a non-2xx answer as http and keeps what the receiver said", async () => {
    const outcome = await sendWebhook(base({ url: `http://127.0.0.1:${port}/error` }));
    expect(outcome).toMatchObject({ ok: false, statusCode: 500, errorClass: "http", responseBody: "boom" });
    const busy = await sendWebhook(base({ url: `http://127.0.0.1:${port}/busy` }));
    expect(busy).toMatchObject({ ok: false, statusCode: 503, errorClass: "http" });
    expect(busy.responseHeaders?.["retry-after"]).toBe("120");
  });

  it("does not follow redirects", async () => {
    const before = received.filter((request) => request.path === "/ok").length;
    const outcome = await sendWebhook(base({ url: `http://127.0.0.1:${port}/redirect` }));
    expect(outcome).toMatchObject({ ok: false, statusCode: 302, errorClass: "http" });
    expect(outcome.responseHeaders?.location).toBe("/ok");
    expect(received.filter((request) => request.path === "/ok").length).toBe(before);
  });

  it("records only the first 16 KiB of a large body", async () => {
    const outcome = await sendWebhook(base({ url: `http://127.0.0.1:${port}/big` }));
    expect(outcome.ok).toBe(true);
    expect(outcome.responseBody).toHaveLength(MAX_RECORDED_BODY_BYTES);
  });

  it("records a binary body without NUL characters (PostgreSQL text cannot hold them)", async () => {
    const outcome = await sendWebhook(base({ url: `http://127.0.0.1:${port}/binary` }));
    expect(outcome.responseBody).toBe("a\uFFFDb");
  });

  it("gives up after the total timeout", async () => {
    const started = Date.now();
    const outcome = await sendWebhook(base({ url: `http://127.0.0.1:${port}/slow`, totalTimeoutMs: 300 }));
    expect(outcome).toMatchObject({ ok: false, statusCode: null, errorClass: "timeout" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("classifies a refused connection as connect", async () => {
    const closed = createHttpServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await sendWebhook(base({ url: `http://127.0.0.1:${closedPort}/ok` }));
    expect(outcome).toMatchObject({ ok: false, errorClass: "connect", statusCode: null });
    expect(outcome.errorMessage).toContain("ECONNREFUSED");
  });

  it("classifies TLS failures as tls: plain HTTP behind https, an untrusted certificate", async () => {
    const wrongProtocol = await sendWebhook(base({ url: `https://127.0.0.1:${port}/ok` }));
    expect(wrongProtocol).toMatchObject({ ok: false, errorClass: "tls" });
    const untrusted = await sendWebhook(base({ url: `https://hooks.test:${tlsPort}/ok`, resolve: localhostOnly }));
    expect(untrusted).toMatchObject({ ok: false, errorClass: "tls" });
  });

  it("connects to the checked address while keeping the host name for TLS and Host (no DNS rebinding)", async () => {
    // hooks.test exists in no DNS: the connection can only have gone to the address the guard checked,
    // and the certificate for hooks.test only validates because SNI still names the host.
    const outcome = await sendWebhook(base({ url: `https://hooks.test:${tlsPort}/ok`, resolve: localhostOnly, ca: tlsCert }));
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    expect(received.at(-1)!.headers.host).toBe(`hooks.test:${tlsPort}`);
  });

  it("refuses a private target without sending anything when private targets are not allowed", async () => {
    const count = received.length;
    const outcome = await sendWebhook(base({ url: `https://127.0.0.1:${tlsPort}/ok`, allowPrivateTargets: false }));
    expect(outcome).toMatchObject({ ok: false, errorClass: "blocked", statusCode: null });
    const http = await sendWebhook(base({ allowPrivateTargets: false }));
    expect(http).toMatchObject({ ok: false, errorClass: "blocked" });
    // A host that resolves to a private address at send time is refused too (it may have changed since it was saved).
    const rebound = await sendWebhook(base({ url: `https://hooks.test:${tlsPort}/ok`, resolve: localhostOnly, allowPrivateTargets: false }));
    expect(rebound).toMatchObject({ ok: false, errorClass: "blocked" });
    expect(received.length).toBe(count);
  });

  it("classifies a host that does not resolve as dns", async () => {
    const nowhere: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.test"), { code: "ENOTFOUND" });
    };
    const outcome = await sendWebhook(base({ url: "https://nowhere.test/hook", resolve: nowhere }));
    expect(outcome).toMatchObject({ ok: false, errorClass: "dns" });
  });
});

describe("pinnedLookup", () => {
  const lookup = pinnedLookup([
    { address: "93.184.215.14", family: 4 },
    { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
  ]);
  const call = (options: { family?: number; all?: boolean }) =>
    new Promise<unknown>((resolve, reject) =>
      lookup("rebinding.example.com", options as never, (error: Error | null, address: unknown, family?: number) =>
        error ? reject(error) : resolve(options.all ? address : { address, family }),
      ),
    );

  it("answers with the checked addresses whatever the name, filtered by family", async () => {
    expect(await call({ all: true })).toHaveLength(2);
    expect(await call({ family: 4 })).toEqual({ address: "93.184.215.14", family: 4 });
    expect(await call({ family: 6 })).toEqual({ address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 });
    expect(await call({ family: 6, all: true })).toEqual([{ address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 }]);
  });

  it("fails rather than fall back to DNS when no checked address fits", async () => {
    const v4only = pinnedLookup([{ address: "93.184.215.14", family: 4 }]);
    await expect(
      new Promise((resolve, reject) => v4only("x", { family: 6 } as never, (error) => (error ? reject(error) : resolve(null)))),
    ).rejects.toThrow();
  });
});

describe("classifyError", () => {
  it.each([
    [{ code: "UND_ERR_CONNECT_TIMEOUT" }, "timeout"],
    [{ code: "UND_ERR_HEADERS_TIMEOUT" }, "timeout"],
    [{ code: "ENOTFOUND" }, "dns"],
    [{ code: "ECONNREFUSED" }, "connect"],
    [{ code: "ECONNRESET" }, "connect"],
    [{ code: "UND_ERR_SOCKET", cause: { code: "ERR_SSL_WRONG_VERSION_NUMBER" } }, "tls"],
    [{ code: "DEPTH_ZERO_SELF_SIGNED_CERT" }, "tls"],
    [{ code: "ERR_TLS_CERT_ALTNAME_INVALID" }, "tls"],
    [{ code: "CERT_HAS_EXPIRED" }, "tls"],
    [new Error("something else"), "connect"],
  ])("%o → %s", (error, expected) => {
    expect(classifyError(error)).toBe(expected);
  });
});

describe("sendWebhook with an agent pool (the worker's keep-alive connections)", () => {
  // A receiver on every local address, reporting which address and client socket each request came in on.
  let wide: Server;
  let widePort: number;
  const seen: { local: string; remotePort: number; path: string }[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const closedPorts = new Set<number>();
  beforeAll(async () => {
    wide = createHttpServer((request, response) => {
      request.resume();
      request.on("end", () => {
        seen.push({ local: request.socket.localAddress ?? "", remotePort: request.socket.remotePort ?? 0, path: request.url ?? "" });
        if (request.url === "/slow") return; // never answers
        response.writeHead(200).end("ok");
      });
    });
    wide.on("connection", (socket) => {
      sockets.add(socket);
      const remotePort = socket.remotePort ?? 0;
      socket.on("close", () => {
        sockets.delete(socket);
        closedPorts.add(remotePort);
      });
    });
    widePort = await new Promise((resolve) => wide.listen(0, "0.0.0.0", () => resolve((wide.address() as AddressInfo).port)));
  });
  afterAll(async () => {
    wide.closeAllConnections();
    await new Promise((resolve) => wide.close(resolve));
  });
  const at = (address: string): Resolver => async () => [{ address, family: 4 }];
  const send = (agents: AgentPool, extra: Partial<SendInput> = {}) =>
    sendWebhook(base({ url: `http://hooks.test:${widePort}/ok`, resolve: at("127.0.0.1"), agents, ...extra }));
  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
    return condition();
  };

  it("reuses one connection for attempts to the same checked address, and opens one per attempt without a pool", async () => {
    const agents = createAgentPool();
    try {
      seen.length = 0;
      for (let i = 0; i < 6; i++) expect(await send(agents)).toMatchObject({ ok: true, statusCode: 200 });
      // undici may open a second socket while the first is finishing its answer; never one per attempt.
      expect(new Set(seen.map((entry) => entry.remotePort)).size).toBeLessThanOrEqual(2);
      expect(agents.size).toBe(1);

      seen.length = 0;
      for (let i = 0; i < 2; i++) await sendWebhook(base({ url: `http://hooks.test:${widePort}/ok`, resolve: at("127.0.0.1") }));
      expect(new Set(seen.map((entry) => entry.remotePort)).size).toBe(2);
    } finally {
      await agents.close();
    }
  });

  it("never sends over a pooled connection to an address this attempt's check did not return", async () => {
    const agents = createAgentPool();
    try {
      seen.length = 0;
      await send(agents, { resolve: at("127.0.0.1") });
      // The name now resolves elsewhere (rebinding, or a plain DNS change): a new agent, pinned to the new answer.
      await send(agents, { resolve: at("127.0.0.2") });
      await send(agents, { resolve: at("127.0.0.1") });
      await send(agents, { resolve: at("127.0.0.2") });
      expect(seen.map((entry) => entry.local)).toEqual(["127.0.0.1", "127.0.0.2", "127.0.0.1", "127.0.0.2"]);
      // No socket carried requests for both addresses.
      const byPort = new Map<number, Set<string>>();
      for (const entry of seen) byPort.set(entry.remotePort, (byPort.get(entry.remotePort) ?? new Set()).add(entry.local));
      expect([...byPort.values()].every((addresses) => addresses.size === 1)).toBe(true);
      expect(agents.size).toBe(2);
    } finally {
      await agents.close();
    }
  });

  it("still checks every attempt: a target that is refused now gets nothing, even with a live pooled connection", async () => {
    const agents = createAgentPool();
    try {
      expect(await send(agents)).toMatchObject({ ok: true });
      const count = seen.length;
      expect(await send(agents, { allowPrivateTargets: false })).toMatchObject({ ok: false, errorClass: "blocked" });
      expect(seen.length).toBe(count);
    } finally {
      await agents.close();
    }
  });

  it("kills a hanging request on a pooled connection at the total timeout, and the pool keeps working", async () => {
    const agents = createAgentPool();
    try {
      await send(agents);
      const outcome = await send(agents, { url: `http://hooks.test:${widePort}/slow`, totalTimeoutMs: 300 });
      expect(outcome).toMatchObject({ ok: false, errorClass: "timeout", statusCode: null });
      // The hung connection was closed on our side, not returned to the pool.
      const hung = seen.at(-1)!;
      expect(hung.path).toBe("/slow");
      expect(await until(() => closedPorts.has(hung.remotePort))).toBe(true);
      expect(await send(agents)).toMatchObject({ ok: true });
    } finally {
      await agents.close();
    }
  });

  it("retires agents after their maximum age and closes idle ones; close() ends every connection", async () => {
    const aging = createAgentPool({ maxAgeMs: 100, idleMs: 10_000 });
    try {
      seen.length = 0;
      await send(aging);
      await new Promise((r) => setTimeout(r, 150));
      await send(aging);
      expect(seen[1]!.remotePort).not.toBe(seen[0]!.remotePort);
    } finally {
      await aging.close();
    }
    expect(aging.size).toBe(0);

    const idle = createAgentPool({ idleMs: 100 });
    try {
      await send(idle);
      expect(idle.size).toBe(1);
      expect(await until(() => idle.size === 0)).toBe(true);
    } finally {
      await idle.close();
    }

    const open = createAgentPool();
    await send(open);
    await open.close();
    expect(open.size).toBe(0);
    expect(await until(() => sockets.size === 0)).toBe(true);
  });
});
