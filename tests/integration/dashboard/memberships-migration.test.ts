import { describe, expect, it } from "vitest";
import { useDatabaseBefore } from "../../support/migrations-before";

/*
 * The teams migration (drizzle/0019_teams_memberships_invitations.sql) on a database written the way the service
 * wrote it before teams: one or more merchant logins per merchant (`users.merchant_id`), staff logins with no
 * console role, and sessions naming only their user. After migrating to the end, each merchant login is its
 * merchant's owner (joined when the login was made), each staff login a console admin, each session acts for its
 * user's merchant, and nothing else moved: no membership for staff, a login without a merchant or a merchant
 * without a login; no invitations. On PGlite and, with DATABASE_URL, on the server.
 */

const MIGRATION = "teams_memberships_invitations";

const database = useDatabaseBefore(MIGRATION);

describe("the teams migration", () => {
  it("makes each merchant's existing logins its owners, staff admins, and sessions act for their merchant", async () => {
    const q = database().query;
    const shop = "mer_01jd7z8x0m4e5t6y7v8w9a0b1c";
    const pair = "mer_01jd7z8x0m4e5t6y7v8w9a0b1d";
    const empty = "mer_01jd7z8x0m4e5t6y7v8w9a0b1e";
    for (const id of [shop, pair, empty]) await q(`insert into merchants (id, name, email) values ($1, 'Shop', $2)`, [id, `${id}@example.com`]);
    const user = (id: string, role: "merchant" | "staff", merchantId: string | null, createdAt: string) =>
      q(`insert into users (id, email, password_hash, role, merchant_id, created_at) values ($1, $2, 'argon2-hash', $3, $4, $5)`, [
        id,
        `${id}@example.com`,
        role,
        merchantId,
        createdAt,
      ]);
    await user("usr_shop", "merchant", shop, "2025-01-02T03:04:05.000Z");
    await user("usr_pair_a", "merchant", pair, "2025-02-01T00:00:00.000Z");
    await user("usr_pair_b", "merchant", pair, "2025-03-01T00:00:00.000Z");
    await user("usr_orphan", "merchant", null, "2025-04-01T00:00:00.000Z");
    await user("usr_staff", "staff", null, "2025-05-01T00:00:00.000Z");
    const session = (id: string, userId: string, revoked: boolean) =>
      q(`insert into sessions (id, user_id, last_seen_at, expires_at, revoked_at, revoke_reason) values ($1, $2, now(), now() + interval '1 day', $3, $4)`, [
        id,
        userId,
        revoked ? new Date().toISOString() : null,
        revoked ? "signed_out" : null,
      ]);
    await session("ses_shop", "usr_shop", false);
    await session("ses_shop_ended", "usr_shop", true);
    await session("ses_pair_b", "usr_pair_b", false);
    await session("ses_staff", "usr_staff", false);
    await session("ses_orphan", "usr_orphan", false);

    await database().migrateToEnd();

    const memberships = await q(`select merchant_id, user_id, role, created_at from memberships order by merchant_id, user_id`);
    expect(memberships.map((row) => ({ ...row, created_at: new Date(row.created_at as string).toISOString() }))).toEqual([
      { merchant_id: shop, user_id: "usr_shop", role: "owner", created_at: "2025-01-02T03:04:05.000Z" },
      { merchant_id: pair, user_id: "usr_pair_a", role: "owner", created_at: "2025-02-01T00:00:00.000Z" },
      { merchant_id: pair, user_id: "usr_pair_b", role: "owner", created_at: "2025-03-01T00:00:00.000Z" },
    ]);
    expect(await q(`select id, staff_role from users order by id`)).toEqual([
      { id: "usr_orphan", staff_role: null },
      { id: "usr_pair_a", staff_role: null },
      { id: "usr_pair_b", staff_role: null },
      { id: "usr_shop", staff_role: null },
      { id: "usr_staff", staff_role: "admin" },
    ]);
    // Every session of a merchant login, live or ended, names the merchant; staff's and the orphan's none.
    expect(await q(`select id, merchant_id from sessions order by id`)).toEqual([
      { id: "ses_orphan", merchant_id: null },
      { id: "ses_pair_b", merchant_id: pair },
      { id: "ses_shop", merchant_id: shop },
      { id: "ses_shop_ended", merchant_id: shop },
      { id: "ses_staff", merchant_id: null },
    ]);
    expect(await q(`select count(*)::int as count from invitations`)).toEqual([{ count: 0 }]);
    // The merchant without a login has no member; every merchant with one has an owner (the last-owner rule holds).
    expect(await q(`select m.id from merchants m where not exists (select 1 from memberships ms where ms.merchant_id = m.id and ms.role = 'owner') order by m.id`)).toEqual([
      { id: empty },
    ]);
  });
});
