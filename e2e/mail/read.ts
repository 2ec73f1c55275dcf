import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * The newest message the run's SMTP sink received for `address` (e2e/mail/global-sink.ts), waiting up to
 * `timeoutMs` for it: what the person would find in their inbox.
 */
export async function mailTo(address: string, timeoutMs = 15_000): Promise<ReceivedMail> {
  const folder = process.env.E2E_MAIL_DIR;
  if (!folder) throw new Error("E2E_MAIL_DIR is not set: the run's global setup starts the mail sink (playwright.config.ts)");
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        const messages = readdirSync(folder)
          .sort()
          .map((name) => JSON.parse(readFileSync(path.join(folder, name), "utf8")) as ReceivedMail);
        found = messages.reverse().find((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));
        return found !== undefined;
      },
      { message: `a mail to ${address}`, timeout: timeoutMs },
    )
    .toBe(true);
  return found!;
}

/** The first http(s) link in a message's text. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`the mail "${mail.subject}" holds no link`);
  return match[0];
}
