import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** The ports this project's tests may bind for an SMTP sink (one per test file that needs mail). */
const PORTS = [3241, 3242, 3243, 3244, 3245, 3246, 3247, 3248, 3249];

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL is set to. */
  url: string;
  messages: ParsedMail[];
  /** Resolves with the first message (already received or to come) that `match` accepts; rejects after `timeoutMs`. */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free port of the project's range that keeps every message it receives, parsed: the
 * service's nodemailer transport talks SMTP to it over TCP exactly as to a production mail server. `onMessage` sees
 * each message as it arrives (the end-to-end run's sink writes it where other processes can read it).
 */
export async function startSmtpSink({ port: only, onMessage }: { port?: number; onMessage?: (mail: ParsedMail) => void } = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          onMessage?.(mail);
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  const port = await listenOnFreePort(server, only ? [only] : PORTS);
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function listenOnFreePort(server: SMTPServer, ports: number[]): Promise<number> {
  for (const port of ports) {
    const bound = await new Promise<boolean>((resolve) => {
      // A port in use: the SMTP server re-emits its socket's error; taken as "try the next port".
      const onError = () => resolve(false);
      server.once("error", onError);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", onError);
        resolve(true);
      });
    });
    if (bound) return port;
  }
  throw new Error(`no free port for the SMTP sink among ${ports.join(", ")}`);
}

/** The first http(s) link in a message's text. */
export function linkIn(mail: ParsedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text ?? "");
  if (!match) throw new Error("the message holds no link");
  return match[0];
}
