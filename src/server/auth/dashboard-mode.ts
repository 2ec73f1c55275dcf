import { cookies } from "next/headers";

/**
 * The dashboard's test-mode switch (docs/test-mode.md): a cookie the header's toggle sets, read on every
 * dashboard request (tRPC, exports, uploads) into the service context's mode. It is a view preference, not a
 * credential: it only chooses which of the signed-in merchant's own data the pages show and make.
 */
export const DASHBOARD_MODE_COOKIE = "mps_mode";
export const TEST_MODE_VALUE = "test";
/** A year: the switch stays where the merchant left it. */
export const DASHBOARD_MODE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Live unless the request carries `mps_mode=test`. */
export function livemodeFromCookieHeader(header: string | null): boolean {
  if (!header) return true;
  for (const part of header.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === DASHBOARD_MODE_COOKIE) return value.join("=") !== TEST_MODE_VALUE;
  }
  return true;
}

export function livemodeOfRequest(request: Request): boolean {
  return livemodeFromCookieHeader(request.headers.get("cookie"));
}

/** The mode in server components and actions. */
export async function dashboardLivemode(): Promise<boolean> {
  return (await cookies()).get(DASHBOARD_MODE_COOKIE)?.value !== TEST_MODE_VALUE;
}
