/**
 * An example webhook receiver for Merchant Payments, following the receiver checklist in docs/webhooks.md:
 *
 *  1. read the raw body (verify the bytes that were signed, not a re-serialised JSON object);
 *  2. verify the signature with the SDK's `verifyWebhook` (on the official `standardwebhooks` library: it
 *     accepts any of the signatures sent during a secret rotation, and types the event);
 *  3. check the timestamp window (±5 min; the library does it) so an old capture cannot be replayed;
 *  4. reject replayed `webhook-id`s: an id already handled is acknowledged (2xx) but not handled again;
 *  5. handle idempotently, keyed by the event id;
 *  6. answer 2xx only after the handling is durable (here: appended to a file and fsynced), so a crash
 *     before that point makes us answer nothing and the service retries.
 *
 * Dependencies: Node.js ≥ 20 and the SDK (`@merchant-payments/sdk`, in this repository's sdk/). Run it with `main.ts`.
 */
import { openSync, readFileSync, writeSync, fsyncSync, existsSync, closeSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from "@merchant-payments/sdk";

export type { WebhookEvent };

/** Your business logic. Throwing makes the receiver answer 500, and the service retries later. */
export type Handler = (eventId: string, event: WebhookEvent) => Promise<void> | void;

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Durable record of handled events: one JSON line per event id, fsynced before we answer 2xx.
 * A real receiver would write this row in the same database transaction as its business change.
 */
export class HandledEvents {
  private readonly ids = new Set<string>();
  constructor(private readonly file: string) {
    if (existsSync(file)) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim()) this.ids.add((JSON.parse(line) as { id: string }).id);
      }
    }
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  record(id: string, event: WebhookEvent): void {
    const fd = openSync(this.file, "a");
    try {
      writeSync(fd, JSON.stringify({ id, type: event.type, data: event.data }) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.ids.add(id);
  }
  get size(): number {
    return this.ids.size;
  }
}

export function createReceiver(options: { secret: string; store: HandledEvents; handle: Handler }) {
  // One handling per id at a time: a retry racing the first delivery must not run the handler twice.
  const inProgress = new Map<string, Promise<void>>();

  return async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== "POST") return reply(response, 405, { error: "method not allowed" });
    // 1. The raw body, exactly as sent.
    const body = await readRaw(request);
    if (body === null) return reply(response, 413, { error: "body too large" });

    // 2 + 3. Signature and timestamp window.
    let event: WebhookEvent;
    try {
      event = verifyWebhook(body, request.headers, options.secret);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return reply(response, 401, { error: "invalid signature" });
      throw error;
    }
    const eventId = header(request, "webhook-id");

    // 4. A replayed or re-delivered id: already handled, acknowledge without handling again.
    await inProgress.get(eventId)?.catch(() => {});
    if (options.store.has(eventId)) return reply(response, 200, { duplicate: true });

    // 5 + 6. Handle, record durably, then acknowledge.
    const work = (async () => {
      await options.handle(eventId, event);
      options.store.record(eventId, event);
    })();
    inProgress.set(eventId, work);
    try {
      await work;
    } catch {
      return reply(response, 500, { error: "handling failed; retry later" });
    } finally {
      inProgress.delete(eventId);
    }
    return reply(response, 200, { received: true });
  };
}

function header(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

async function readRaw(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
