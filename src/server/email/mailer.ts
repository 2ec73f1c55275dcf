import nodemailer, { type Transporter } from "nodemailer";

/** Where mail goes: the SMTP server's URL (credentials inside it, never logged) and the sender. */
export interface MailSettings {
  smtpUrl: string;
  from: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text: every message is readable without HTML. */
  text: string;
  html?: string;
}

// One transport per SMTP URL: a process has one; tests start a sink per file.
const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    // Bounded waits: a mail server that does not answer must not hold a request's follow-up work for minutes.
    transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/**
 * Sends one message through the SMTP server (nodemailer). Resolves with the server's message id; rejects when the
 * server refuses it or cannot be reached. Callers decide whether that failure is theirs to show.
 */
export async function deliverMail(settings: MailSettings, message: MailMessage): Promise<{ messageId: string }> {
  const info = await transportFor(settings.smtpUrl).sendMail({ from: settings.from, ...message });
  return { messageId: String(info.messageId) };
}
