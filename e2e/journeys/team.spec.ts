import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { linkIn, mailTo } from "../mail/read";
import { createPaymentOverRest, DESKTOP, expectAccessible, PHONE, screenshot, signUpThroughForm } from "./support";

// A merchant's team, as its people use it (docs/team-and-security.md): the owner invites a support agent by email,
// the agent joins with a password and adds a passkey, refunds a payment but cannot reach the API keys, and once the
// owner removes them their open tab is refused at its next request. The agent opens the invitation from its mail,
// as received by the run's real SMTP server (e2e/mail/global-sink.ts).

/** WebAuthn needs a domain: the agent browses as `localhost`, with a virtual authenticator (as sign-in-security.spec.ts). */
async function agentPage(browser: Browser, testInfo: TestInfo, viewport: { width: number; height: number }) {
  const baseURL = String(testInfo.project.use.baseURL).replace("127.0.0.1", "localhost");
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `10.${randomBytes(3).join(".")}` });
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { page, close: () => context.close() };
}

async function invite(owner: Page, email: string, role: string): Promise<string> {
  await owner.goto("/dashboard/team");
  await owner.getByLabel("Email").fill(email);
  await owner.getByLabel("Role", { exact: true }).selectOption(role);
  await owner.getByRole("button", { name: "Invite" }).click();
  // Shown once to the inviter as well (for a service without mail); the agent follows the one in their mail.
  const shown = (await owner.getByTestId("invitation-link").textContent())!.trim();
  const mailed = linkIn(await mailTo(email));
  expect(mailed).toBe(shown);
  // The link names the service's public address; the agent's browser reaches the same server under its own.
  return new URL(mailed).pathname;
}

for (const size of [
  { name: "phone", ...PHONE },
  { name: "desktop", ...DESKTOP },
]) {
  test(`a support agent joins, refunds but cannot see the keys, and is shut out once removed (${size.name})`, async ({ page: owner, browser }, testInfo) => {
    await owner.setViewportSize(size);
    const merchant = await signUpThroughForm(owner, "Team Journey");
    const payment = await createPaymentOverRest(owner.request, merchant.apiKey, { externalId: `team-${randomBytes(4).toString("hex")}`, amount: "30.00", currency: "EUR" });

    const agentEmail = `agent-${randomBytes(4).toString("hex")}@e2e.example`;
    const agentPassword = `agent password ${randomBytes(4).toString("hex")}`;
    const invitation = await invite(owner, agentEmail, "support");
    await expect(owner.getByRole("region", { name: "Pending invitations" }).first()).toContainText(agentEmail);
    await screenshot(owner, testInfo, `team-invited-${size.name}`);

    const { page: agent, close } = await agentPage(browser, testInfo, size);
    try {
      // The agent sets a name and a password through the one-time link, then signs in.
      await agent.goto(invitation);
      await agent.getByLabel("Your name").fill("Sam Support");
      await agent.getByLabel("Password", { exact: true }).fill(agentPassword);
      await agent.getByLabel("Repeat the password").fill(agentPassword);
      await agent.getByRole("button", { name: "Join the team" }).click();
      await expect(agent.getByRole("status")).toContainText("Your account is ready");
      await agent.getByRole("link", { name: "Sign in" }).click();
      await agent.getByLabel("Email").fill(agentEmail);
      await agent.getByLabel("Password").fill(agentPassword);
      await agent.getByRole("button", { name: "Sign in", exact: true }).click();
      await agent.waitForURL(/\/dashboard/);

      // …and adds a passkey.
      await agent.goto("/dashboard/account");
      await agent.getByLabel("Name").fill(`Agent's laptop ${size.name}`);
      await agent.getByRole("button", { name: "Add a passkey" }).click();
      await expect(agent.getByRole("list", { name: "Your passkeys" })).toContainText(`Agent's laptop ${size.name}`);

      // The link worked once.
      await agent.context().clearCookies();
      const again = await browser.newPage({ baseURL: String(testInfo.project.use.baseURL) });
      await again.goto(invitation);
      await expect(again.getByText("This invitation was already used.")).toBeVisible();
      await again.close();
      // Signing in now takes the password, then the passkey.
      await agent.goto("/login");
      await agent.getByLabel("Email").fill(agentEmail);
      await agent.getByLabel("Password").fill(agentPassword);
      await agent.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(agent.getByRole("heading", { name: "Second step" })).toBeVisible();
      await agent.getByRole("button", { name: "Use a passkey" }).click();
      await agent.waitForURL(/\/dashboard/);

      // Support's work: a refund, in three clicks. No Keys page, in the navigation or by its address.
      await agent.goto(`/dashboard/payments/${payment.id}`);
      await agent.getByRole("button", { name: "Refund…" }).click();
      await expect(agent.getByLabel("Amount (EUR)")).toHaveValue("30.00");
      await agent.getByRole("button", { name: "Review" }).click();
      await agent.getByRole("button", { name: "Confirm refund" }).click();
      await expect(agent.getByTestId("refund-done")).toContainText("succeeded");
      await expectAccessible(agent);
      await screenshot(agent, testInfo, `team-agent-refunded-${size.name}`);
      await expect(agent.getByRole("link", { name: "Keys", exact: true })).toHaveCount(0);
      await agent.goto("/dashboard/keys");
      await expect(agent).not.toHaveURL(/\/dashboard\/keys/);
      expect((await agent.request.get("/api/trpc/apiKeys.list")).status()).toBe(403);

      // The owner sees the agent and removes them.
      await owner.goto("/dashboard/team");
      const members = owner.getByRole("region", { name: "Members" }).first();
      await expect(members).toContainText(agentEmail);
      const agentRow = members.getByRole("row").filter({ hasText: agentEmail });
      await agentRow.getByRole("button", { name: `Remove ${agentEmail}` }).click();
      await agentRow.getByRole("button", { name: "Yes, remove" }).click();
      await expect(members).not.toContainText(agentEmail);

      // The agent's open tab: its next request is refused, and the page sends them to sign in.
      await expect(async () => {
        expect((await agent.request.get("/api/trpc/merchants.profile")).status()).toBe(401);
      }).toPass({ timeout: 7_000 });
      await agent.reload();
      await expect(agent).toHaveURL(/\/login/);
    } finally {
      await close();
    }
  });
}
