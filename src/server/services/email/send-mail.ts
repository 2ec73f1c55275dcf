import type { Env } from "@/env";
import { deliverMail, type MailMessage } from "@/server/email/mailer";
import type { ServiceContext } from "../context";

/** Whether this service sends mail at all (SMTP_URL set): without it, flows that need mail say so instead. */
export function mailEnabled(env: Pick<Env, "SMTP_URL">): boolean {
  return Boolean(env.SMTP_URL);
}

/**
 * Sends one message to one recipient, for any feature (password resets, team invitations): the one way the
 * services send mail (src/server/README.md, "Sending mail"). Call it after the change it announces has committed.
 * `kind` names the message in logs (the recipient's address and the body are never logged: a body may hold a
 * link that is a credential). Resolves `{ sent: false }` when mail is not configured or the server failed (the
 * failure is logged), `{ sent: true }` once the SMTP server accepted it; it never throws.
 */
export async function sendMail({ ctx, input }: { ctx: ServiceContext; input: MailMessage & { kind: string } }): Promise<{ sent: boolean }> {
  const { kind, ...message } = input;
  if (!ctx.env.SMTP_URL) return { sent: false };
  try {
    await deliverMail({ smtpUrl: ctx.env.SMTP_URL, from: ctx.env.MAIL_FROM }, message);
    return { sent: true };
  } catch (error) {
    // The error's name and code only: nodemailer's messages can quote the server's reply, which may name the address.
    const { name, code } = error as { name?: string; code?: string };
    ctx.log.warn({ mail: kind, error: name, code }, "could not send mail");
    return { sent: false };
  }
}
