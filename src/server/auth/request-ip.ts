import { clientIp } from "@/server/net/client-ip";

/**
 * The client address of a server action's request, read the way the REST pipeline reads it (clientIp:
 * the connection's peer, or the address the outermost of TRUSTED_PROXY_HOPS proxies saw), so per-address
 * limits agree across both.
 */
export function clientIpFromHeaders(headers: Headers, trustedHops: number): string {
  return clientIp(new Request("http://dashboard.invalid/", { headers }), trustedHops);
}
