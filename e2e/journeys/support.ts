import { readFileSync } from "node:fs";
import { expect, type Download, type Page, type TestInfo } from "@playwright/test";
import { Webhook } from "standardwebhooks";

export { createPaymentOverRest, expectAccessible, flipTestMode, screenshot, signIn, signOut, signUpThroughForm, STAFF, uniqueId } from "../dashboard/helpers";
export { startReceiver } from "../dashboard/receiver";
export { sdk } from "../api/sdk";

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Which database this run's server uses: the journeys run on both (playwright.config.ts). */
export function databaseOf(testInfo: TestInfo): "embedded" | "server" {
  return testInfo.project.name.endsWith("server-db") ? "server" : "embedded";
}

/** The webhooks a receiver got, verified with the standardwebhooks library against the secret: their bodies. */
export function verifiedWebhooks(received: { headers: Record<string, string | string[] | undefined>; body: string }[], secret: string) {
  const verifier = new Webhook(secret);
  return received.map((request) => verifier.verify(request.body, request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> });
}

/** A file the page downloads when `click` runs, as text. */
export async function downloaded(page: Page, click: () => Promise<void>): Promise<{ text: string; download: Download }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { text: readFileSync((await download.path())!, "utf8"), download };
}

/**
 * Nothing on the page is wider than the window (no sideways scrolling on a phone), once the page has laid itself out
 * for it: right after the window narrows, parts that size themselves in script may still hold the wider width for a
 * moment (568 px measured at 390 px on a loaded machine). A page that stays too wide still fails, after 3 s.
 */
export async function expectNoSidewaysScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: "px wider than the window", timeout: 3_000 })
    .toBeLessThanOrEqual(0);
}
