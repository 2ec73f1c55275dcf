import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { linkIn, mailTo } from "../mail/read";
import { expectAccessible, screenshot, signOut, signUpThroughForm } from "./helpers";

/**
 * Signing in securely, at a phone's width and a desktop's (docs/team-and-security.md): a password reset by email
 * (read from the run's real SMTP server: e2e/mail/global-sink.ts), an authenticator app set up and asked for at
 * sign-in, and passkeys through Chromium's virtual authenticator (CDP WebAuthn), as the second step and alone.
 */
const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/** The app's code at a moment: the step after the one just used, so a code is never a replay. */
function codeAt(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });
}

async function fillPasswordStep(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * WebAuthn needs a domain, not an IP address: the passkey tests browse the server as `localhost` (which
 * PUBLIC_BASE_URL names by default, so it is the relying party), with a virtual authenticator that has a
 * discoverable credential store and verifies its user.
 */
async function passkeyPage(browser: Browser, testInfo: TestInfo, viewport: { width: number; height: number }) {
  const baseURL = String(testInfo.project.use.baseURL).replace("127.0.0.1", "localhost");
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { page, close: () => context.close() };
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("a forgotten password is reset through the emailed link, which works once", async ({ page }, testInfo) => {
      const merchant = await signUpThroughForm(page);
      await page.context().clearCookies();
      await page.goto("/login");
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel("Email").fill(merchant.email);
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByRole("status")).toContainText(`If an account uses ${merchant.email}`);

      const mail = await mailTo(merchant.email);
      const link = new URL(linkIn(mail));
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByLabel("New password", { exact: true }).fill("a new e2e password 42");
      await page.getByLabel("Repeat the new password").fill("a new e2e password 42");
      await screenshot(page, testInfo, `reset-password-${size.name}`);
      await page.getByRole("button", { name: "Set the new password" }).click();
      await expect(page.getByRole("status")).toContainText("Your password was changed");

      // The link is spent.
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByLabel("New password", { exact: true }).fill("yet another password 42");
      await page.getByLabel("Repeat the new password").fill("yet another password 42");
      await page.getByRole("button", { name: "Set the new password" }).click();
      await expect(page.getByText("This reset link is invalid, used or expired.")).toBeVisible();

      await fillPasswordStep(page, merchant.email, merchant.password);
      await expect(page.getByText("The email or the password is wrong.")).toBeVisible();
      await fillPasswordStep(page, merchant.email, "a new e2e password 42");
      await page.waitForURL(/\/dashboard/);
    });

    test("an authenticator app is set up on the Account page and asked for at the next sign-in", async ({ page }, testInfo) => {
      const merchant = await signUpThroughForm(page);
      await page.goto("/dashboard/account");
      await page.getByRole("button", { name: "Set up an authenticator app" }).click();
      const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
      await page.getByLabel("Code from the app").fill(codeAt(secret, Date.now()));
      await page.getByRole("button", { name: "Turn on" }).click();
      await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
      await screenshot(page, testInfo, `account-recovery-codes-${size.name}`);
      await page.getByRole("button", { name: "I saved them" }).click();
      await expect(page.getByText("On: signing in asks for a code from your app.")).toBeVisible();
      await expectAccessible(page);
      await signOut(page);

      await fillPasswordStep(page, merchant.email, merchant.password);
      await expect(page.getByRole("heading", { name: "Second step" })).toBeVisible();
      await page.getByLabel("Code from your authenticator app").fill("000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByText("That was not accepted. Check it and try again.")).toBeVisible();
      // The form empties itself after an answer: type the next code once it has.
      await expect(page.getByLabel("Code from your authenticator app")).toHaveValue("");
      await page.getByLabel("Code from your authenticator app").fill(codeAt(secret, Date.now() + 30_000));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(/\/dashboard/);
      await page.goto("/dashboard/account");
      await expect(page.getByRole("table", { name: "Your sessions" }).or(page.getByLabel("Your sessions"))).toContainText("(this device)");
    });

    test("a passkey is added, then signs in as the second step and on its own", async ({ browser }, testInfo) => {
      const { page, close } = await passkeyPage(browser, testInfo, size);
      try {
        const merchant = await signUpThroughForm(page);
        await page.goto("/dashboard/account");
        await page.getByLabel("Name").fill(`Laptop ${size.name}`);
        await page.getByRole("button", { name: "Add a passkey" }).click();
        await expect(page.getByRole("list", { name: "Your passkeys" })).toContainText(`Laptop ${size.name}`);
        await screenshot(page, testInfo, `account-passkey-${size.name}`);
        await signOut(page);

        // The password, then the passkey.
        await fillPasswordStep(page, merchant.email, merchant.password);
        await expect(page.getByRole("heading", { name: "Second step" })).toBeVisible();
        await page.getByRole("button", { name: "Use a passkey" }).click();
        await page.waitForURL(/\/dashboard/);
        await signOut(page);

        // The passkey alone (signing out left the browser on the sign-in page).
        await page.getByRole("button", { name: "Use a passkey" }).click();
        await page.waitForURL(/\/dashboard/);
        await page.goto("/dashboard/account");
        await expect(page.getByText(merchant.email).first()).toBeVisible();
      } finally {
        await close();
      }
    });
  });
}
