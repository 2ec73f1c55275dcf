import { EventSourceParserStream, type EventSourceMessage } from "eventsource-parser/stream";
import { dispatch } from "../../src/server/http/dispatch";
import { routes } from "../../src/server/http/routes";
import type { Runtime } from "../../src/server/runtime";
import type { TestClient } from "./client";
import type { TestMerchant } from "./merchants";

/** Creates an invoice, which records one `invoice.created` event for the merchant; the invoice id. */
export async function recordInvoiceEvent(api: TestClient, merchant: TestMerchant): Promise<string> {
  const created = await api.post("/invoice", { key: merchant.apiKey, body: { amount: "1.00", currency: "EUR" } });
  if (created.status !== 201) throw new Error(`creating an invoice answered ${created.status}: ${created.text}`);
  return created.body.id;
}

/** One `GET /event/stream` held open through the real pipeline; `close()` drops it as a client would. */
export async function openEventStream(runtime: Runtime, key: string, options: { lastEventId?: string; seconds?: number } = {}) {
  const abort = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (options.lastEventId) headers["last-event-id"] = options.lastEventId;
  const url = `http://localhost/api/v1/event/stream?seconds=${options.seconds ?? 60}`;
  const response = await dispatch(runtime, routes, new Request(url, { headers, signal: abort.signal }));
  const messages = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = messages.getReader();
  let ended = false;
  let pending: Promise<ReadableStreamReadResult<EventSourceMessage>> | undefined;

  return {
    response,
    /** The next `count` events, failing after `timeoutMs`. */
    async take(count: number, timeoutMs = 15_000): Promise<EventSourceMessage[]> {
      const taken: EventSourceMessage[] = [];
      const timeout = AbortSignal.timeout(timeoutMs);
      const timedOut = new Promise<"timeout">((resolve) => timeout.addEventListener("abort", () => resolve("timeout")));
      while (taken.length < count) {
        // A read that loses the race stays pending and is awaited by the next take: no message is dropped.
        pending ??= reader.read();
        const next = await Promise.race([pending, timedOut]);
        if (next === "timeout") throw new Error(`only ${taken.length} of ${count} events in ${timeoutMs} ms`);
        pending = undefined;
        if (next.done) throw new Error(`the stream ended after ${taken.length} of ${count} events`);
        taken.push(next.value);
      }
      return taken;
    },
    /** Everything until the stream ends by itself. */
    async rest(): Promise<EventSourceMessage[]> {
      const taken: EventSourceMessage[] = [];
      for (;;) {
        const next = await (pending ?? reader.read());
        pending = undefined;
        if (next.done) break;
        taken.push(next.value);
      }
      ended = true;
      return taken;
    },
    /** The client goes without reading on: only its request's signal says so. */
    abort() {
      abort.abort();
    },
    async close() {
      abort.abort();
      if (!ended) await reader.cancel().catch(() => {});
    },
  };
}
