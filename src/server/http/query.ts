/** Query string → object; a repeated key becomes an array (`?eventTypes=a&eventTypes=b`). */
export function queryObject(url: URL): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}

/**
 * Best-effort client address for per-IP limits. Each proxy appends the address it received the request
 * from to X-Forwarded-For, so only the last `trustedHops` entries were written by our own proxies; the
 * entry `trustedHops` places from the right is the client as our outermost proxy saw it. Anything further
 * left was sent by the client and could be forged to dodge a limit. (Next.js fills the header with the
 * socket address when it is absent.)
 */
export function clientIp(request: Request, trustedHops = 1): string {
  const hops = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const client = hops[Math.max(0, hops.length - trustedHops)];
  return client || request.headers.get("x-real-ip") || "unknown";
}
