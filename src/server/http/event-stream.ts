import { ServiceError } from "@/server/services/errors";
import type { ServiceContext } from "@/server/services/context";
import { listSettledEvents } from "@/server/services/events/list-settled";
import type { Event } from "@/server/services/events/schemas";

/** Limits of one `GET /event/stream` connection (docs/developer-tools.md, "The event stream"). */
export const EVENT_STREAM = {
  /** How often the events table is read for new events once the backlog is sent. */
  pollMs: 1_000,
  /** A comment line this often keeps proxies and the client's idle timers from closing a quiet stream. */
  heartbeatMs: 15_000,
  /** Events read per query: a long backlog is sent in pages, never read at once. */
  batch: 100,
  /** The longest a connection stays open; the client reconnects with Last-Event-ID and loses nothing. */
  maxSeconds: 300,
  /** What clients wait before reconnecting (the SSE `retry` field). */
  retryMs: 1_000,
  /** Streams one merchant may hold open at once in one web process (each costs a query a second). */
  maxPerMerchant: 10,
} as const;

/** Open streams per merchant in this process. */
const openStreams = new Map<string, number>();

/**
 * Takes one of the merchant's stream slots, or refuses with 429 `rate_limited` when all are held: an
 * integration opening streams in a loop (one per request, each held for minutes) would otherwise hold
 * unbounded connections and queries. Per process, so N web processes allow N × the cap (docs/developer-tools.md).
 * The returned release is idempotent.
 */
export function claimStreamSlot(merchantId: string): () => void {
  const open = openStreams.get(merchantId) ?? 0;
  if (open >= EVENT_STREAM.maxPerMerchant) {
    throw new ServiceError(
      "rate_limited",
      `At most ${EVENT_STREAM.maxPerMerchant} event streams may be open at once; close one, or retry when one ends.`,
      { headers: { "retry-after": "5" } },
    );
  }
  openStreams.set(merchantId, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openStreams.get(merchantId) ?? 1) - 1;
    if (left > 0) openStreams.set(merchantId, left);
    else openStreams.delete(merchantId);
  };
}

const encoder = new TextEncoder();

/** One event in the SSE wire format; the id is what the client sends back as Last-Event-ID. */
export function sseEvent(event: Event): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * A text/event-stream of the merchant's events after `after`, oldest first: the backlog in pages, then new
 * events as they settle (polled), a heartbeat while quiet, until `seconds` have passed or the client goes
 * (its request aborts or it cancels the body). `seconds: 0` sends the backlog and ends. Pull-based: a page
 * is read only when the client has taken the last one, so a slow reader holds one page, not the backlog.
 */
export function eventStream(options: {
  ctx: ServiceContext;
  after?: string;
  seconds: number;
  signal: AbortSignal;
  /** Shorter intervals for tests; the route uses EVENT_STREAM. */
  limits?: { pollMs: number; heartbeatMs: number };
  /** Called once when the stream ends, however it ends (the client went, its time ran out, an error). */
  onClose?: () => void;
}): ReadableStream<Uint8Array> {
  const { ctx, signal } = options;
  const { pollMs, heartbeatMs } = options.limits ?? EVENT_STREAM;
  let cursor = options.after;
  let lastWrite = Date.now();
  const deadline = Date.now() + options.seconds * 1000;
  const stop = new AbortController();
  const closed = () => options.onClose?.();
  const onAbort = () => {
    stop.abort();
    closed();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  const end = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    signal.removeEventListener("abort", onAbort);
    closed();
    // Cancelled by the client meanwhile: the stream is already closed.
    if (!stop.signal.aborted || signal.aborted) {
      try {
        controller.close();
      } catch {
        // already closed by cancel()
      }
    }
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${EVENT_STREAM.retryMs}\n\n`));
    },
    async pull(controller) {
      try {
        for (;;) {
          if (stop.signal.aborted) return end(controller);
          const page = await listSettledEvents({ ctx, input: { after: cursor, limit: EVENT_STREAM.batch } });
          if (stop.signal.aborted) return end(controller);
          if (page.length > 0) {
            controller.enqueue(encoder.encode(page.map(sseEvent).join("")));
            cursor = page.at(-1)!.id;
            lastWrite = Date.now();
            return;
          }
          if (Date.now() >= deadline) return end(controller);
          if (Date.now() - lastWrite >= heartbeatMs) {
            controller.enqueue(encoder.encode(": heartbeat\n\n"));
            lastWrite = Date.now();
            return;
          }
          await sleep(Math.min(pollMs, deadline - Date.now()), stop.signal);
        }
      } catch (error) {
        // The client reconnects and resumes from its last id; the cause is logged, never sent.
        ctx.log.warn({ err: error, requestId: ctx.requestId }, "event stream ended by an error");
        end(controller);
      }
    },
    cancel() {
      signal.removeEventListener("abort", onAbort);
      stop.abort();
      closed();
    },
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
