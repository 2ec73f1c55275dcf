import { randomBytes } from "node:crypto";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { Webhook } from "standardwebhooks";
import { encodeTime } from "ulid";
import { createClient, type Schema } from "../../sdk/src";

export interface ListenOptions {
  /** Where the service runs (`MPS_API_URL`). */
  apiUrl: string;
  /** `sk_live_…` (`MPS_API_KEY`). */
  apiKey: string;
  /** The local URL each event is posted to. */
  forwardTo: string;
  /** The `whsec_…` secret events are signed with; made afresh when not given. */
  secret?: string;
  /** Resume after this event id; default: events from now on. */
  after?: string;
  /** Stops listening. */
  signal?: AbortSignal;
  /** One line of output (default: stdout). */
  print?: (line: string) => void;
  /** The fetch used for the service (tests route it through the pipeline); forwarding uses the global fetch. */
  apiFetch?: (request: Request) => Promise<Response>;
  /** How long to wait before reconnecting after the stream ends or drops. */
  reconnectMs?: number;
}

/** A secret in the Standard Webhooks format: `whsec_` and base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * A cursor at this moment: ids are ULIDs that sort by creation time, so the smallest id of this millisecond
 * comes before every event recorded from now on (docs/developer-tools.md).
 */
export function cursorAtNow(now = Date.now()): string {
  return `evt_${encodeTime(now, 10).toLowerCase()}${"0".repeat(16)}`;
}

const FORWARD_TIMEOUT_MS = 10_000;

/**
 * `stripe listen` for this service: holds `GET /event/stream` open, reconnecting with Last-Event-ID whenever it
 * ends or drops (so no event is lost or repeated), and posts each event to `forwardTo` signed as a Standard
 * Webhook, the same body a webhook delivery carries. Prints one line per event with the local answer. Resolves
 * when `signal` aborts; rejects when the key is refused.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const print = options.print ?? ((line: string) => process.stdout.write(line + "\n"));
  const secret = options.secret ?? newSigningSecret();
  const webhook = new Webhook(secret);
  const client = createClient({ apiKey: options.apiKey, baseUrl: options.apiUrl, ...(options.apiFetch ? { fetch: options.apiFetch } : {}) });
  let lastEventId = options.after ?? cursorAtNow();
  print(`Forwarding events to ${options.forwardTo}. Signing secret: ${secret}`);
  // Until the stream has answered once, a failure is most likely a wrong address: say which, and stop.
  let connected = false;

  while (!options.signal?.aborted) {
    try {
      const { response, data: body } = await client.GET("/event/stream", {
        params: { query: { seconds: 300 } },
        headers: { "last-event-id": lastEventId },
        parseAs: "stream",
        signal: options.signal,
      });
      if (response.status === 401) throw new ListenRefused(`The service refused the API key (${response.status}). Check MPS_API_KEY.`);
      if (!connected && response.status === 404) {
        throw new ListenRefused(
          `${streamUrl(options.apiUrl)} answered 404: no event stream there. Check that MPS_API_URL (${options.apiUrl}) is the address the service runs at, without /api/v1.`,
        );
      }
      if (!response.ok || !body) throw new Error(`the stream answered ${response.status}`);
      connected = true;
      const messages = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      // Stopping drops the connection at once, whatever the stream is waiting for.
      const drop = () => void messages.cancel().catch(() => {});
      options.signal?.addEventListener("abort", drop, { once: true });
      for (let next = await messages.read(); !next.done; next = await messages.read()) {
        const event = JSON.parse(next.value.data) as Schema<"Event">;
        print(await forward(options.forwardTo, webhook, event));
        // Forwarded whatever the local answer: like a webhook's retries, re-sending is the receiver's to ask for.
        lastEventId = event.id;
      }
      options.signal?.removeEventListener("abort", drop);
    } catch (error) {
      if (error instanceof ListenRefused) throw error;
      if (options.signal?.aborted) break;
      if (!connected) {
        throw new ListenRefused(
          `Could not reach the service at ${options.apiUrl} (${reasonOf(error)}). Check that it is running (npm run dev or npm start) ` +
            `and that MPS_API_URL is its address, such as http://localhost:3000.`,
        );
      }
      print(`Connection lost (${error instanceof Error ? error.message : String(error)}); reconnecting after ${lastEventId}`);
    }
    await sleep(options.reconnectMs ?? 1_000, options.signal);
  }
}

class ListenRefused extends Error {}

function streamUrl(apiUrl: string): string {
  return `${apiUrl.replace(/\/+$/, "")}/api/v1/event/stream`;
}

/** Why a request failed, as the network said it: `ECONNREFUSED 127.0.0.1:3999`, `ENOTFOUND no-such-host`. */
function reasonOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Posts one event as its webhook would be, signed with `webhook`; the line to print. */
async function forward(url: string, webhook: Webhook, event: Schema<"Event">): Promise<string> {
  const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event.data });
  const sentAt = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": webhook.sign(event.id, sentAt, body),
  };
  const started = performance.now();
  const line = `${sentAt.toISOString()}  ${event.type.padEnd(24)} ${event.id}`;
  try {
    const answer = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    await answer.body?.cancel();
    return `${line}  → ${answer.status} ${answer.statusText} (${Math.round(performance.now() - started)} ms)`;
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return `${line}  → failed: ${cause}`;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
