import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordPeerAddresses } from "./peer-address";
import { clientIp } from "./client-ip";

/**
 * The client address as the app computes it, on requests that came over a real socket: a Web `Request` built
 * from the Node request's headers, as Next.js builds the one a route handler gets.
 */
let port: number;
let computed: (trustedProxies: number) => Promise<string>;
let latest: IncomingMessage["headers"] = {};
const server = createServer((request, response) => {
  latest = request.headers;
  response.end();
});

function send(headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, path: "/", headers }, (response) => {
      response.resume();
      response.on("end", resolve);
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  recordPeerAddresses();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  computed = async (trustedProxies) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(latest)) if (typeof value === "string") headers.set(name, value);
    return clientIp(new Request("http://app.invalid/", { headers }), trustedProxies);
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("client address over a real connection", () => {
  it("with no proxy in front, is the connection's peer whatever X-Forwarded-For says", async () => {
    await send({ "x-forwarded-for": "203.0.113.9" });
    expect(await computed(0)).toBe("127.0.0.1");
    await send({});
    expect(await computed(0)).toBe("127.0.0.1");
  });

  it("behind one proxy, is the address that proxy appended, not what its client prepended", async () => {
    await send({ "x-forwarded-for": "198.51.100.7" });
    expect(await computed(1)).toBe("198.51.100.7");
    await send({ "x-forwarded-for": "203.0.113.9, 198.51.100.7" });
    expect(await computed(1)).toBe("198.51.100.7");
  });

  it("behind two proxies, is the address the outer one saw", async () => {
    await send({ "x-forwarded-for": "203.0.113.9, 198.51.100.7, 10.0.0.2" });
    expect(await computed(2)).toBe("198.51.100.7");
  });

  it("records the peer under a header no client can name", async () => {
    await send({ "x-forwarded-for": "203.0.113.9" });
    const recorded = Object.keys(latest).filter((name) => latest[name] === "127.0.0.1");
    expect(recorded).toHaveLength(1);
    // A client that sends that very name (it cannot know it: random per process) is overwritten.
    await send({ [recorded[0]!]: "203.0.113.9" });
    expect(await computed(0)).toBe("127.0.0.1");
  });
});

describe("client address without a recorded peer (requests built in-process, as in tests)", () => {
  it("takes the last X-Forwarded-For entry as the peer", () => {
    const request = (xff: string) => new Request("http://app.invalid/", { headers: { "x-forwarded-for": xff } });
    expect(clientIp(request("203.0.113.9, 198.51.100.7"), 0)).toBe("198.51.100.7");
    expect(clientIp(request("203.0.113.9, 198.51.100.7"), 1)).toBe("203.0.113.9");
    expect(clientIp(request("::ffff:192.0.2.1"), 0)).toBe("192.0.2.1");
    expect(clientIp(new Request("http://app.invalid/"), 0)).toBe("unknown");
  });
});
