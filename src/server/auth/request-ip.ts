/** Best-effort client address from request headers: the first X-Forwarded-For hop set by the proxy in front. */
export function clientIpFromHeaders(headers: Headers): string {
  const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return first || headers.get("x-real-ip") || "unknown";
}
