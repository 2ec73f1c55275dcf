import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signUpThroughForm, uniqueId } from "./helpers";

/**
 * The settlement upload explains itself: what a file must hold before one is chosen, and for a file that cannot be
 * reconciled (a PNG, one over the size limit, an empty one, a header alone) a message naming the problem — with
 * nothing sent. A file with malformed lines is reconciled, each such line shown with its number and why.
 */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01]);

test("a settlement upload names what is wrong with a file before sending it, and each malformed line after", async ({ page, request }, testInfo) => {
  const merchant = await signUpThroughForm(page, "Upload Shop");
  const uploads: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/dashboard/reconciliation/upload")) uploads.push(sent.url());
  });
  await page.goto("/dashboard/reconciliation");
  const input = page.getByLabel("Settlement file (CSV, up to 10 MB)");
  const reconcile = page.getByRole("button", { name: "Reconcile" });
  const problem = page.locator("#upload-error");

  // Before a file: each column and an example.
  const example = page.getByLabel("An example settlement file");
  await expect(example).toContainText("externalId,reference,amount,currency,settledAt,fee");
  await expect(page.getByText("the settled amount, a plain decimal (required)")).toBeVisible();
  await expectAccessible(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `upload-${width}-before-a-file`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const refusals: { name: string; file: { name: string; mimeType: string; buffer: Buffer }; says: RegExp }[] = [
    { name: "png", file: { name: "statement.png", mimeType: "image/png", buffer: PNG }, says: /statement\.png is not a CSV file: it looks like a PNG image/ },
    {
      name: "too-large",
      file: { name: "year.csv", mimeType: "text/csv", buffer: Buffer.alloc(10 * 1024 * 1024 + 300 * 1024, "a,1.00,EUR\n") },
      says: /year\.csv is 10\.3 MB; files are limited to 10 MB\. Split it/,
    },
    { name: "empty", file: { name: "empty.csv", mimeType: "text/csv", buffer: Buffer.alloc(0) }, says: /empty\.csv is empty/ },
    {
      name: "header-only",
      file: { name: "header.csv", mimeType: "text/csv", buffer: Buffer.from("externalId,amount,currency\n\n") },
      says: /header\.csv has a header line but no payment lines/,
    },
  ];
  for (const refusal of refusals) {
    await test.step(refusal.name, async () => {
      await input.setInputFiles(refusal.file);
      await expect(problem).toHaveText(refusal.says);
      await expect(problem).toHaveRole("alert");
      await expect(reconcile).toBeDisabled();
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(example).toBeVisible();
    });
  }
  await expectAccessible(page);
  await screenshot(page, testInfo, "upload-1280-refused");
  expect(uploads, "a refused file is never sent").toEqual([]);

  // A file with malformed lines: reconciled, each one shown with its line number and why.
  const paid = await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("ok"), amount: "10.00", currency: "EUR" });
  const day = new Date().toISOString().slice(0, 10);
  const file = ["externalId,amount,currency,settledAt", `${paid.externalId},10.00,EUR,${day}`, `${uniqueId("x")},ten,EUR,${day}`, `,5.00,EUR,${day}`].join("\n");
  await input.setInputFiles({ name: "settlement.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
  await expect(problem).toHaveCount(0);
  await expect(example).toBeHidden();
  await reconcile.click();
  await expect(page.getByTestId("summary-malformed")).toHaveText("2", { timeout: 30_000 });
  await page.getByLabel("Show").selectOption("malformed");
  const lines = page.getByRole("region", { name: "Report lines" }).locator("tbody tr");
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText("3");
  await expect(lines.nth(0)).toContainText("amount must be a plain decimal");
  await expect(lines.nth(1)).toContainText("4");
  await expect(lines.nth(1)).toContainText(/externalId or reference/);
  expect(uploads).toHaveLength(1);
});
