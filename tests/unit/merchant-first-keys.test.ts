import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../../src/server/db/open";

/*
 * Ready to shard by merchant (docs/operations.md, "Past one primary"): every merchant-owned table carries a NOT NULL
 * merchant_id, its primary key and every unique key start with it, and every foreign key either names the merchant
 * (merchant_id → merchants.id), points at a table listed below, or carries merchant_id on both sides, so no row
 * can point at another merchant's. Read from the catalog of a database migrated from drizzle/ (the hand-written
 * migrations included), so a table added by any branch is checked at merge. A table that is not merchant-owned
 * must be listed here, with the reason.
 */
const NOT_MERCHANT_OWNED: Record<string, string> = {
  merchants: "the merchants themselves: a reference table (one small row a merchant, copied to every node)",
  users: "people, who may belong to several merchants: a reference table",
  sessions: "a person's sign-ins, not a merchant's: a reference table",
  // A person's own sign-in security (docs/team-and-security.md): theirs whichever merchants they belong to.
  totp_factors: "a person's authenticator app, not a merchant's: a reference table, as sessions",
  recovery_codes: "a person's recovery codes, not a merchant's: a reference table, as sessions",
  passkeys: "a person's passkeys, not a merchant's: a reference table, as sessions",
  auth_challenges: "a sign-in in progress, before any merchant is chosen: a reference table, as sessions",
  password_resets: "a person's reset links, not a merchant's: a reference table, as sessions",
  audit_log: "a row may name no merchant (a staff sign-in): kept on the coordinator, not distributed",
  audit_chain_heads: "the audit log's chain heads, one a merchant plus one for rows naming none: kept with audit_log",
};

interface Key {
  table: string;
  name: string;
  columns: string[];
}
interface ForeignKey extends Key {
  references: string;
  referencedColumns: string[];
}

let client: PGlite;
let tables: { name: string; merchantIdNullable: boolean | null }[];
let keys: Key[];
let foreignKeys: ForeignKey[];

beforeAll(async () => {
  client = await PGlite.create({ extensions: { pg_trgm } });
  await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
  // Ordinary and partitioned tables, not the partitions themselves (they share their parent's keys).
  tables = (
    await client.query<{ name: string; nullable: boolean | null }>(`
      select c.relname as name, (select not a.attnotnull from pg_attribute a where a.attrelid = c.oid and a.attname = 'merchant_id' and not a.attisdropped) as nullable
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`)
  ).rows.map((row) => ({ name: row.name, merchantIdNullable: row.nullable }));
  const columnsOf = `array(select a.attname::text from unnest(%s) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = %s and a.attnum = k.attnum order by k.n)`;
  // Primary keys and every unique index (a unique constraint has one too), partial ones included.
  keys = (
    await client.query<Key>(`
      select t.relname as table, i.relname as name, ${columnsOf.replace("%s", "x.indkey::int2[]").replace("%s", "x.indrelid")} as columns
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and x.indisunique and not t.relispartition`)
  ).rows;
  foreignKeys = (
    await client.query<ForeignKey>(`
      select t.relname as table, f.conname as name, r.relname as references,
        ${columnsOf.replace("%s", "f.conkey").replace("%s", "f.conrelid")} as columns,
        ${columnsOf.replace("%s", "f.confkey").replace("%s", "f.confrelid")} as "referencedColumns"
      from pg_constraint f join pg_class t on t.oid = f.conrelid join pg_class r on r.oid = f.confrelid join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and f.contype = 'f' and not t.relispartition and f.conparentid = 0`)
  ).rows;
}, 60_000);
afterAll(async () => {
  await client?.close();
});

const merchantOwned = () => tables.filter((table) => !(table.name in NOT_MERCHANT_OWNED));

describe("merchant-first keys", () => {
  it("finds the schema's tables, and every listed exception is a table", () => {
    expect(merchantOwned().map((table) => table.name)).toEqual(expect.arrayContaining(["payments", "invoices", "events", "webhook_deliveries"]));
    for (const name of Object.keys(NOT_MERCHANT_OWNED)) expect(tables.map((table) => table.name), name).toContain(name);
  });

  it("gives every merchant-owned table a NOT NULL merchant_id", () => {
    const without = merchantOwned().filter((table) => table.merchantIdNullable !== false);
    expect(without.map((table) => `${table.name}: ${table.merchantIdNullable === null ? "no merchant_id" : "merchant_id may be null"}`)).toEqual([]);
  });

  it("starts every primary and unique key of a merchant-owned table with merchant_id", () => {
    const owned = new Set(merchantOwned().map((table) => table.name));
    const notFirst = keys.filter((key) => owned.has(key.table) && key.columns[0] !== "merchant_id");
    expect(notFirst.map((key) => `${key.table}.${key.name} (${key.columns.join(", ")})`)).toEqual([]);
    // Every merchant-owned table has a primary key at all.
    for (const table of owned) expect(keys.some((key) => key.table === table && key.name.endsWith("_pk") || key.table === table && key.name.endsWith("_pkey")), table).toBe(true);
  });

  it("lets no foreign key of a merchant-owned table reach another merchant's row", () => {
    const owned = new Set(merchantOwned().map((table) => table.name));
    const crossing = foreignKeys.filter((fk) => {
      if (!owned.has(fk.table)) return false;
      if (fk.references in NOT_MERCHANT_OWNED && fk.references !== "merchants") return false; // a reference table: on every node
      if (fk.references === "merchants") return !(fk.columns.length === 1 && fk.columns[0] === "merchant_id");
      const at = fk.columns.indexOf("merchant_id");
      return at < 0 || fk.referencedColumns[at] !== "merchant_id";
    });
    expect(crossing.map((fk) => `${fk.table}.${fk.name} (${fk.columns.join(", ")}) → ${fk.references} (${fk.referencedColumns.join(", ")})`)).toEqual([]);
  });

  it("lets no table that is not merchant-owned point into a merchant-owned one", () => {
    const owned = new Set(merchantOwned().map((table) => table.name));
    const into = foreignKeys.filter((fk) => !owned.has(fk.table) && owned.has(fk.references));
    expect(into.map((fk) => `${fk.table}.${fk.name} → ${fk.references}`)).toEqual([]);
  });
});
