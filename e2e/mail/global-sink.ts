import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSmtpSink } from "../../tests/support/smtp-sink";

/**
 * Playwright's global setup: one real SMTP server for the whole run, on E2E_SMTP_PORT (the port every web server's
 * SMTP_URL names: playwright.config.ts; scripts/e2e.mjs picks a free one). Specs run in other processes and at the
 * same time, so the sink writes each message it receives to a folder (E2E_MAIL_DIR, one JSON file a message) where
 * `mailTo` (e2e/mail/read.ts) finds a recipient's. The teardown closes it and removes the folder.
 */
export default async function globalSink() {
  const folder = mkdtempSync(path.join(tmpdir(), "e2e-mail-"));
  process.env.E2E_MAIL_DIR = folder; // seen by the workers, which start after the global setup
  let received = 0;
  const sink = await startSmtpSink({
    port: Number(process.env.E2E_SMTP_PORT ?? 2525),
    onMessage: (mail) => {
      const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((address) => address.value.map((one) => one.address ?? ""));
      writeFileSync(path.join(folder, `${String(++received).padStart(6, "0")}.json`), JSON.stringify({ to, subject: mail.subject ?? "", text: mail.text ?? "" }));
    },
  });
  return async () => {
    await sink.close();
    rmSync(folder, { recursive: true, force: true });
  };
}
