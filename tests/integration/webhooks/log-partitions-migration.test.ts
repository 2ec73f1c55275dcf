import { describe, expect, it } from "vitest";
import { useDatabaseBefore } from "../../support/migrations-before";

/*
 * The migration that partitions the logs, on a database holding the previous schema's data: migrate to the
 * migration before it, write merchants, endpoints, events over several days, deliveries (one still pending),
 * attempts and audit rows the old way, migrate to the end, and check that every row is there, in its day's (its
 * month's) partition, with the deliveries and attempts keyed by their event's time, and that the logs take new
 * writes. On PGlite and, with DATABASE_URL, on the server.
 */

const MIGRATION = "time_partitioned_logs";

const database = useDatabaseBefore(MIGRATION);

const SHOP = "mer_01jd7z8x0m4e5t6y7v8w9a0b1c";
const ENDPOINT = "we_01jd7z8x0m4e5t6y7v8w9a0b1c";
const DAYS = ["2026-10-30T23:59:59.999Z", "2026-10-31T00:00:00.000Z", "2026-11-26T12:00:00.000Z"];

describe("the migration that partitions the logs", () => {
  it("moves every event, delivery, attempt and audit row into its day's (month's) partition", async () => {
    const q = database().query;
    await q(`insert into merchants (id, name, email) values ($1, 'Shop', 'shop@example.com')`, [SHOP]);
    await q(`insert into webhook_endpoints (id, merchant_id, url, is_default) values ($1, $2, 'https://shop.example.com/hooks', true)`, [ENDPOINT, SHOP]);
    for (const [n, at] of DAYS.entries()) {
      await q(`insert into events (id, merchant_id, type, data, created_at) values ($1, $2, 'payment.confirmed', $3, $4)`, [`evt_${n}`, SHOP, { n }, at]);
      // The delivery written later than its event (a recovery): it takes its event's day, not its own.
      await q(
        `insert into webhook_deliveries (id, merchant_id, event_id, endpoint_id, url, status, next_attempt_at, created_at, updated_at)
         values ($1, $2, $3, $4, 'https://shop.example.com/hooks', $5, now(), $6::timestamptz + interval '2 hours', now())`,
        [`whd_${n}`, SHOP, `evt_${n}`, ENDPOINT, n === 2 ? "pending" : "delivered", at],
      );
      await q(
        `insert into delivery_attempts (id, delivery_id, merchant_id, trigger, queued_at, sent_at, status_code, created_at)
         values ($1, $2, $3, 'scheduled', $4, $4, 200, $4::timestamptz + interval '3 hours')`,
        [`wha_${n}`, `whd_${n}`, SHOP, at],
      );
      await q(`insert into audit_log (id, actor_type, merchant_id, action, target_type, created_at) values ($1, 'system', $2, 'test', 'merchant', $3)`, [`aud_${n}`, n === 0 ? null : SHOP, at]);
    }

    await database().migrateToEnd();

    const partitionOf = (table: string) =>
      q(`select c.relname as partition, t.id from ${table} t join pg_class c on c.oid = t.tableoid order by t.id`);
    expect(await partitionOf("events")).toEqual([
      { partition: "events_p20261030", id: "evt_0" },
      { partition: "events_p20261031", id: "evt_1" },
      { partition: "events_p20261126", id: "evt_2" },
    ]);
    expect(await partitionOf("webhook_deliveries")).toEqual([
      { partition: "webhook_deliveries_p20261030", id: "whd_0" },
      { partition: "webhook_deliveries_p20261031", id: "whd_1" },
      { partition: "webhook_deliveries_p20261126", id: "whd_2" },
    ]);
    expect(await partitionOf("delivery_attempts")).toEqual([
      { partition: "delivery_attempts_p20261030", id: "wha_0" },
      { partition: "delivery_attempts_p20261031", id: "wha_1" },
      { partition: "delivery_attempts_p20261126", id: "wha_2" },
    ]);
    expect(await partitionOf("audit_log")).toEqual([
      { partition: "audit_log_p202610", id: "aud_0" },
      { partition: "audit_log_p202610", id: "aud_1" },
      { partition: "audit_log_p202611", id: "aud_2" },
    ]);
    // Every column came over; deliveries and attempts now carry their event's time.
    const deliveries = await q(`select id, status, event_created_at = (select created_at from events e where e.id = d.event_id) as keyed,
      created_at - event_created_at as written_after from webhook_deliveries d order by id`);
    expect(deliveries.map((row) => [row.id, row.status, row.keyed])).toEqual([
      ["whd_0", "delivered", true],
      ["whd_1", "delivered", true],
      ["whd_2", "pending", true],
    ]);
    const attempts = await q(`select a.id, a.status_code, a.event_created_at = d.event_created_at as keyed from delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id order by a.id`);
    expect(attempts).toEqual([
      { id: "wha_0", status_code: 200, keyed: true },
      { id: "wha_1", status_code: 200, keyed: true },
      { id: "wha_2", status_code: 200, keyed: true },
    ]);
    expect(await q(`select id, data from events order by id`)).toEqual(DAYS.map((_, n) => ({ id: `evt_${n}`, data: { n } })));
    expect((await q(`select merchant_id from audit_log order by id`)).map((row) => row.merchant_id)).toEqual([null, SHOP, SHOP]);
    // drizzle/0020_audit_log_chain.sql chained them: each merchant's rows from 1 in time order, every link recomputable,
    // the head at the last (the rows naming no merchant are a chain of their own).
    expect(await q(`select id, seq::int as seq from audit_log order by id`)).toEqual([
      { id: "aud_0", seq: 1 },
      { id: "aud_1", seq: 1 },
      { id: "aud_2", seq: 2 },
    ]);
    const linked = await q(`
      select a.id from audit_log a
      where a.hash = audit_entry_hash(coalesce((select p.hash from audit_log p where p.merchant_id is not distinct from a.merchant_id and p.seq = a.seq - 1), ''),
        a.seq, a.id, a.actor_type, a.actor_id, a.merchant_id, a.action, a.target_type, a.target_id, a.request_id, a.ip, a.user_agent, a.details, a.created_at)
      order by a.id`);
    expect(linked.map((row) => row.id)).toEqual(["aud_0", "aud_1", "aud_2"]);
    expect(await q(`select chain, seq::int as seq, hash = (select hash from audit_log where id = 'aud_2') as at_last from audit_chain_heads where chain = $1`, [SHOP])).toEqual([
      { chain: SHOP, seq: 2, at_last: true },
    ]);

    // The logs are partitioned, with a default partition that takes a day not made yet.
    const kinds = await q(`select relname, relkind from pg_class where relname in ('events', 'webhook_deliveries', 'delivery_attempts', 'audit_log') order by relname`);
    expect(kinds.map((row) => row.relkind)).toEqual(["p", "p", "p", "p"]);
    await q(`insert into events (id, merchant_id, type, data, created_at) values ('evt_new', $1, 'payment.confirmed', '{}', '2031-01-01T00:00:00Z')`, [SHOP]);
    expect(await q(`select c.relname as partition from events t join pg_class c on c.oid = t.tableoid where t.id = 'evt_new'`)).toEqual([{ partition: "events_default" }]);
    // The keys hold the partition key and lead with the merchant: the same id twice in one merchant's day is refused.
    await expect(q(`insert into events (id, merchant_id, type, data, created_at) values ('evt_2', $1, 'payment.confirmed', '{}', $2)`, [SHOP, DAYS[2]])).rejects.toThrow(
      /duplicate key/,
    );
  });
});
