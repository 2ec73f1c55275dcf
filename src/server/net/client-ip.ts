import { peerAddress } from "./peer-address";

/**
 * The client address for per-IP limits. `hops` is every address the request passed through as each hop saw
 * it: the X-Forwarded-For entries (each proxy appends the address it received the request from) and, last, our
 * own TCP peer. The last `trustedProxies` of them are our proxies; the entry before them is the client as the
 * outermost one saw it. Anything further left was written by the client and could be forged to dodge a limit.
 * Without a recorded peer (a request that did not come through this process's HTTP server: tests), the last
 * X-Forwarded-For entry stands for it, as Next.js writes the socket address there when the client sent none.
 */
export function clientIp(request: Request, trustedProxies = 0): string {
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const peer = peerAddress(request.headers);
  const hops = peer === undefined ? forwarded : [...forwarded, peer];
  const client = hops[Math.max(0, hops.length - 1 - trustedProxies)];
  return client ? unmapped(client) : "unknown";
}

/** `::ffff:1.2.3.4` (an IPv4 client of a dual-stack socket) counts as `1.2.3.4`, as it does behind a proxy. */
function unmapped(address: string): string {
  return address.toLowerCase().startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
