import { randomBytes } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * The TCP peer of each request, for per-IP limits. Route handlers and server actions see a Web `Request`, which
 * has no socket, and Next.js writes the socket address into X-Forwarded-For only when the client sent none: a
 * client talking to the app directly can put anything there. Node publishes every request its HTTP servers
 * receive on the `http.server.request.start` diagnostics channel before any handler runs; the subscriber copies
 * the socket's address into a header whose name is random per process, so no client can send it.
 *
 * The name lives on `globalThis` because instrumentation (which subscribes) and the route handlers (which read)
 * are separate bundles with separate module state.
 */
const HEADER_NAME = Symbol.for("merchant-payments.peerAddressHeader");
const registry = globalThis as typeof globalThis & { [HEADER_NAME]?: string };

/** Start recording the peer address of every request this process's HTTP servers receive (once). */
export function recordPeerAddresses(): void {
  if (registry[HEADER_NAME]) return;
  const header = `x-peer-${randomBytes(12).toString("hex")}`;
  registry[HEADER_NAME] = header;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[header] = socket.remoteAddress ?? "";
  });
}

/** The address the request's connection came from, if this process recorded it. */
export function peerAddress(headers: Headers): string | undefined {
  const header = registry[HEADER_NAME];
  return (header && headers.get(header)) || undefined;
}
