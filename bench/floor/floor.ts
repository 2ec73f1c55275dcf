import postgres from "postgres";
import { newId } from "../../src/lib/ids";

/**
 * The benchmark floor: the bare SQL of each benchmarked request, with nothing of ours around it (no auth,
 * validation, idempotency or logging). `bench/bare-server.ts` serves it from `node:http`, and the floor app
 * (bench/floor/app/api/bench/**) from Next.js route handlers, so the two differ only in the HTTP layer.
 * Statements are tagged templates: postgres.js prepares them once per connection.
 */
export interface Floor {
  /** GET one payment by id, scoped to its merchant. */
  getPayment(merchantId: string, id: string): Promise<Record<string, unknown> | undefined>;
  /** POST: a payment, its event and its pending delivery (the outbox row), in one transaction. */
  createPayment(merchantId: string, input: FloorPaymentInput): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface FloorPaymentInput {
  externalId: string;
  amount: string;
  currency: string;
}

export const FLOOR_CONSTANT = { status: "ok", service: "merchant-payments" } as const;
/** Deliveries the floor writes point nowhere: benchmarks run with no worker draining them. */
const FLOOR_WEBHOOK_URL = "http://127.0.0.1:9/bench-floor";

export function createFloor(url: string, options: { max?: number; boundInFlight?: boolean } = {}): Floor {
  const max = options.max ?? 10;
  const sql = postgres(url, { max, onnotice: () => {} });
  // porsager/postgres#747 reports a slowdown once more queries wait in postgres.js than its pool holds. Its cause,
  // the pool's queue, is patched (docs/decisions.md, "postgres.js 3.4.9 is patched"); the cure suggested before that was known, at most
  // `max` operations inside the driver, measured slower (it takes postgres.js's pipelining away), so it is off
  // unless asked for.
  const gate = options.boundInFlight ? semaphore(max) : unbounded;

  return {
    getPayment: (merchantId, id) =>
      gate(async () => {
        const [row] = await sql`select * from payments where id = ${id} and merchant_id = ${merchantId} limit 1`;
        return row;
      }),
    createPayment: (merchantId, input) =>
      gate(() =>
        sql.begin(async (tx) => {
          const now = new Date();
          const [payment] = await tx`
            insert into payments (id, merchant_id, external_id, amount, currency, status, confirmed_at, created_at, updated_at)
            values (${newId("payment")}, ${merchantId}, ${input.externalId}, ${input.amount}, ${input.currency}, 'confirmed', ${now}, ${now}, ${now})
            returning *`;
          const eventId = newId("event");
          await tx`
            insert into events (id, merchant_id, type, data, subject_id, created_at)
            values (${eventId}, ${merchantId}, 'payment.confirmed', ${tx.json(payment as never)}, ${payment!.id}, ${now})`;
          await tx`
            insert into webhook_deliveries (id, merchant_id, event_id, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
            select ${newId("delivery")}, ${merchantId}, ${eventId}, e.id, ${FLOOR_WEBHOOK_URL}, 'pending', ${now}, ${now}, ${now}
            from webhook_endpoints e where e.merchant_id = ${merchantId} and e.is_default`;
          return payment!;
        }),
      ),
    close: () => sql.end({ timeout: 5 }),
  };
}

type Gate = <T>(work: () => Promise<T>) => Promise<T>;

const unbounded: Gate = (work) => work();

/** At most `limit` of the gated operations run at once; the rest wait in FIFO order. */
export function semaphore(limit: number): Gate {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
