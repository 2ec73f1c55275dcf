/**
 * CSRF defence for cookie-authenticated POSTs (tRPC mutations, CSV export): the browser's `Origin`
 * (or `Sec-Fetch-Site`) must say the request comes from this site. The session cookie is SameSite=Lax
 * as well; this check does not depend on that.
 */
export function isSameOriginRequest(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin" || fetchSite === "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
