import pg from "pg";
import { newId } from "../../src/lib/ids";

/**
 * The benchmark floor: the bare SQL of each benchmarked request, with nothing of ours around it (no auth,
 * validation, idempotency or logging). `bench/bare-server.ts` serves it from `node:http`, and the floor app
 * (bench/floor/app/api/bench/**) from Next.js route handlers, so the two differ only in the HTTP layer.
 * Statements go through node-postgres as the app's do: unnamed, parameterised, one round trip each.
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

export function createFloor(url: string, options: { max?: number } = {}): Floor {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  pool.on("error", () => {});

  return {
    getPayment: async (merchantId, id) => {
      const { rows } = await pool.query("select * from payments where id = $1 and merchant_id = $2 limit 1", [id, merchantId]);
      return rows[0];
    },
    createPayment: async (merchantId, input) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const now = new Date();
        const {
          rows: [payment],
        } = await client.query(
          `insert into payments (id, merchant_id, external_id, amount, currency, status, confirmed_at, created_at, updated_at)
           values ($1, $2, $3, $4, $5, 'confirmed', $6, $6, $6) returning *`,
          [newId("payment"), merchantId, input.externalId, input.amount, input.currency, now],
        );
        const eventId = newId("event");
        await client.query("insert into events (id, merchant_id, type, data, subject_id, created_at) values ($1, $2, 'payment.confirmed', $3, $4, $5)", [
          eventId,
          merchantId,
          JSON.stringify(payment),
          payment.id,
          now,
        ]);
        await client.query(
          `insert into webhook_deliveries (id, merchant_id, event_id, event_created_at, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
           select $1, $2, $3, $5, e.id, $4, 'pending', $5, $5, $5 from webhook_endpoints e where e.merchant_id = $2 and e.is_default`,
          [newId("delivery"), merchantId, eventId, FLOOR_WEBHOOK_URL, now],
        );
        await client.query("commit");
        return payment as Record<string, unknown>;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
