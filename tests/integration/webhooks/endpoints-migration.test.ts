import { describe, expect, it } from "vitest";
import { useDatabaseBefore } from "../../support/migrations-before";
import { sealSecret, WEBHOOK_SECRET_PURPOSE } from "../../../src/server/crypto/secret-box";
import { loadSigningSecrets } from "../../../src/server/webhooks/secrets";

/*
 * The endpoints migration on a database populated the round-1 way: migrate to the migration before it, write
 * merchants, secrets, events, deliveries and a breaker as round 1 did (one webhook URL per merchant, the secret
 * per merchant), migrate to the end, and check every merchant has its default endpoint holding its URL, event
 * types and secret, and that deliveries point at it. On PGlite and, with DATABASE_URL, on the server.
 */

const MIGRATION = "webhook_endpoints";
const AUTH_SECRET = "a".repeat(48);

const database = useDatabaseBefore(MIGRATION);

describe("the webhook endpoints migration", () => {
  it("turns each round-1 merchant's webhook URL, event types and secret into its default endpoint", async () => {
    const q = database().query;
    const merchant = (id: string, url: string | null, types: string[]) =>
      q(`insert into merchants (id, name, email, webhook_url, webhook_events) values ($1, 'Shop', $2, $3, $4)`, [id, `${id}@example.com`, url, types]);
    const shop = "mer_01jd7z8x0m4e5t6y7v8w9a0b1c";
    const quiet = "mer_01jd7z8x0m4e5t6y7v8w9a0b1d";
    await merchant(shop, "https://shop.example.com/hooks", ["payment.confirmed", "payment.failed"]);
    await merchant(quiet, null, ["payment.confirmed"]);
    const secret = "whsec_MvRzcr4AflParREFFxgvtlo9XHHaYSilAHPYHSZUjz0=";
    await q(`insert into webhook_secrets (id, merchant_id, secret_ciphertext) values ('whs_1', $1, $2)`, [shop, sealSecret(AUTH_SECRET, WEBHOOK_SECRET_PURPOSE, secret)]);
    await q(`insert into webhook_secrets (id, merchant_id, secret_ciphertext) values ('whs_2', $1, $2)`, [quiet, sealSecret(AUTH_SECRET, WEBHOOK_SECRET_PURPOSE, "whsec_other")]);
    await q(`insert into events (id, merchant_id, type, data) values ('evt_1', $1, 'payment.confirmed', '{}')`, [shop]);
    await q(
      `insert into webhook_deliveries (id, merchant_id, event_id, url, status, next_attempt_at) values ('whd_1', $1, 'evt_1', 'https://shop.example.com/hooks', 'pending', now())`,
      [shop],
    );
    await q(`insert into webhook_endpoint_breakers (merchant_id, url, consecutive_failures) values ($1, 'https://shop.example.com/hooks', 3)`, [shop]);

    await database().migrateToEnd();

    const endpoints = await q(`select id, merchant_id, url, event_types, status, is_default from webhook_endpoints order by merchant_id`);
    expect(endpoints).toEqual([
      { id: "we_01jd7z8x0m4e5t6y7v8w9a0b1c", merchant_id: shop, url: "https://shop.example.com/hooks", event_types: ["payment.confirmed", "payment.failed"], status: "enabled", is_default: true },
      { id: "we_01jd7z8x0m4e5t6y7v8w9a0b1d", merchant_id: quiet, url: null, event_types: ["payment.confirmed"], status: "enabled", is_default: true },
    ]);
    expect(await q(`select id, endpoint_id from webhook_secrets order by id`)).toEqual([
      { id: "whs_1", endpoint_id: "we_01jd7z8x0m4e5t6y7v8w9a0b1c" },
      { id: "whs_2", endpoint_id: "we_01jd7z8x0m4e5t6y7v8w9a0b1d" },
    ]);
    expect(await q(`select id, endpoint_id, status from webhook_deliveries`)).toEqual([
      { id: "whd_1", endpoint_id: "we_01jd7z8x0m4e5t6y7v8w9a0b1c", status: "pending" },
    ]);
    // Breaker state is a cool-down of seconds: it starts afresh.
    expect(await q(`select * from webhook_endpoint_breakers`)).toEqual([]);
    // The registration secret signs for the default endpoint.
    const secrets = await loadSigningSecrets(database().drizzle as never, { endpointId: "we_01jd7z8x0m4e5t6y7v8w9a0b1c", now: new Date(), authSecret: AUTH_SECRET });
    expect(secrets).toEqual([secret]);
  });
});
