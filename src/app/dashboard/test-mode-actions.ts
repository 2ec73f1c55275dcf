"use server";

import { cookies } from "next/headers";
import { getEnv } from "@/env";
import { DASHBOARD_MODE_COOKIE, DASHBOARD_MODE_MAX_AGE_SECONDS, TEST_MODE_VALUE } from "@/server/auth/dashboard-mode";
import { getDashboardSession } from "@/server/auth/current-session";

/**
 * Turns the dashboard's test mode on or off (docs/test-mode.md): a cookie the dashboard's requests carry, read
 * into the service context's mode. Merchant users only: staff act in live mode.
 */
export async function setTestModeAction(on: boolean): Promise<void> {
  const user = await getDashboardSession();
  if (!user || user.role !== "merchant") return;
  const jar = await cookies();
  if (on) {
    jar.set(DASHBOARD_MODE_COOKIE, TEST_MODE_VALUE, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: DASHBOARD_MODE_MAX_AGE_SECONDS,
      // A preference, not a credential; still kept off plain HTTP when the service is served over HTTPS.
      secure: getEnv().PUBLIC_BASE_URL.startsWith("https://"),
    });
  } else {
    jar.delete(DASHBOARD_MODE_COOKIE);
  }
}
