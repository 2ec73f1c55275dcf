-- Audit log: client address and User-Agent, and a hash chain per merchant (docs/team-and-security.md, "Audit log").
-- Hand-written beyond drizzle-kit's output (keep when renumbering): `seq`/`hash` are added nullable, then the
-- function `audit_entry_hash` (the one definition of a link: the writer, this backfill and `npm run audit:verify`
-- all call it), then the DO block chains the rows written before this migration (per merchant, in
-- created_at, id order) and records each chain's head, then `seq`/`hash` become NOT NULL.
CREATE TABLE "audit_chain_heads" (
	"chain" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
-- A link: hex SHA-256 of the previous link's hash (hex; '' for the first) followed by the entry's canonical form,
-- the text of a JSON array of its fields (jsonb's text form: keys sorted, one spacing, so the same entry always
-- gives the same text) with the time as whole microseconds since 1970 (independent of the session's time zone).
CREATE FUNCTION audit_entry_hash(prev text, seq bigint, id text, actor_type text, actor_id text, merchant_id text,
	action text, target_type text, target_id text, request_id text, ip text, user_agent text, details jsonb,
	created_at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT encode(sha256(convert_to(prev || jsonb_build_array(seq, id, actor_type, actor_id, merchant_id, action,
		target_type, target_id, request_id, ip, user_agent, details,
		(extract(epoch FROM created_at) * 1000000)::bigint)::text, 'UTF8')), 'hex')
$$;--> statement-breakpoint
DO $$
DECLARE
	r record;
	chain_key text := NULL;
	link text;
	n bigint;
BEGIN
	FOR r IN SELECT * FROM "audit_log" ORDER BY coalesce("merchant_id", ''), "created_at", "id" LOOP
		IF chain_key IS DISTINCT FROM coalesce(r.merchant_id, '') THEN
			IF chain_key IS NOT NULL THEN INSERT INTO "audit_chain_heads" VALUES (chain_key, n, link); END IF;
			chain_key := coalesce(r.merchant_id, '');
			link := '';
			n := 0;
		END IF;
		n := n + 1;
		link := audit_entry_hash(link, n, r.id, r.actor_type, r.actor_id, r.merchant_id, r.action, r.target_type,
			r.target_id, r.request_id, r.ip, r.user_agent, r.details, r.created_at);
		UPDATE "audit_log" SET "seq" = n, "hash" = link WHERE "id" = r.id AND "created_at" = r.created_at;
	END LOOP;
	IF chain_key IS NOT NULL THEN INSERT INTO "audit_chain_heads" VALUES (chain_key, n, link); END IF;
END $$;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_chain_idx" ON "audit_log" USING btree ("merchant_id","seq");
