/**
 * CSRF defence for the cookie-authenticated endpoints (tRPC, CSV export), on top of the SameSite=Lax cookie.
 * A state-changing request must show it comes from this site: `Sec-Fetch-Site: same-origin`, or an `Origin`
 * naming this host. A GET is refused only when the browser says it comes from elsewhere (a cross-site link or
 * form), since same-origin GETs carry no `Origin`; some tRPC queries write audit rows (staff searches).
 */
export function isCrossSiteRequest(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (request.method === "GET" || request.method === "HEAD") {
    return fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none";
  }
  if (fetchSite) return fetchSite !== "same-origin";
  const origin = request.headers.get("origin");
  if (!origin) return true;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}
