/**
 * CSRF defence for the cookie-authenticated endpoints (tRPC, CSV export), on top of the SameSite=Lax cookie.
 * A state-changing request must show it comes from this site: `Sec-Fetch-Site: same-origin`, or an `Origin`
 * naming this host. A GET is refused only when the browser says it comes from elsewhere (a cross-site link or
 * form), since same-origin GETs carry no `Origin`; some tRPC queries write audit rows (staff searches).
 */
export function isCrossSiteRequest(request: Request, trustedProxyHops: number): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (request.method === "GET" || request.method === "HEAD") {
    return fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none";
  }
  if (fetchSite) return fetchSite !== "same-origin";
  const origin = request.headers.get("origin");
  if (!origin) return true;
  const host = sameOriginHost((name) => request.headers.get(name), trustedProxyHops);
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/**
 * The host the client asked for. `X-Forwarded-Host` is what a proxy in front says the client asked for, so it
 * counts only when TRUSTED_PROXY_HOPS declares such a proxy; otherwise the client wrote it, and with it could
 * make any `Origin` look like this site's.
 */
export function sameOriginHost(header: (name: string) => string | null, trustedProxyHops: number): string | null {
  const forwarded = trustedProxyHops > 0 ? header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || header("host");
}
