import { createSelectSchema } from "drizzle-zod";
import { z } from "zod";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { auditLog } from "@/server/db/schema";
import { listSchema, pageQuery } from "../pagination";
import { describeFields, isoTimestamps, jsonObject, rowShape } from "../row-shape";

/** Merchant audit log schemas (docs/team-and-security.md, "Audit log"). */

export const AUDIT_ACTOR_TYPES = auditLog.actorType.enumValues;

/** `actor`: one actor's id (`usr_…`, `key_…`), or every actor of a kind (`user`, `api_key`, `staff`, `system`). */
const actorFilter = z
  .string()
  .max(64)
  .refine((value) => (AUDIT_ACTOR_TYPES as readonly string[]).includes(value) || /^[a-z]+_[0-9A-Za-z]+$/.test(value), {
    message: `must be an actor's id (usr_…, key_…) or one of ${AUDIT_ACTOR_TYPES.join(", ")}`,
  })
  .describe("An actor's id (`usr_…` a dashboard user, `key_…` an API key) or a kind of actor (`user`, `api_key`, `staff`, `system`).");

/** `action`: one action (`api_key.rolled`) or every action under a prefix (`api_key.*`). */
const actionFilter = z
  .string()
  .max(100)
  .regex(/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/, "must be an action (`api_key.rolled`) or a prefix with `.*` (`api_key.*`)")
  .describe("An action (`api_key.rolled`) or a prefix with `.*` (`api_key.*`).");

export const listMerchantAuditInput = z
  .strictObject({
    ...pageQuery,
    actor: actorFilter.optional(),
    action: actionFilter.optional(),
    since: isoInstantInput({ offset: true }).optional().describe("Entries recorded at or after this time."),
    until: isoInstantInput({ offset: true }).optional().describe("Entries recorded before this time."),
  })
  .superRefine(startNotAfterEnd("since", "until"));
export type ListMerchantAuditInput = z.input<typeof listMerchantAuditInput>;

/**
 * An entry of the merchant's audit log as the merchant sees it: the row less whose it is. `seq` and `hash` are the
 * entry's link in the merchant's hash chain, so an export can be checked against a later one.
 */
export const auditEntrySchema = describeFields(
  createSelectSchema(auditLog, { ...isoTimestamps(auditLog), details: jsonObject.nullable() }).omit({ merchantId: true }),
  {
    id: "`audit_…`.",
    actorType: "Who acted: a dashboard `user`, an `api_key`, support `staff`, the `system`, or an `anonymous` caller (a failed sign-in).",
    actorId: "The user's (`usr_…`) or API key's (`key_…`) id; null for the system.",
    action: "What was done, `<resource>.<verb>` (`api_key.rolled`, `merchant.updated`).",
    targetType: "The kind of thing acted on.",
    targetId: "The id of the thing acted on.",
    requestId: "The request that made the change (`x-request-id`).",
    ip: "The client's address, when the change came from a request.",
    userAgent: "The client's User-Agent, when the change came from a request.",
    details: "What changed: `changes: {field: {from, to}}` for settings; never a secret.",
    seq: "The entry's position in your audit log's hash chain, from 1, without gaps.",
    hash: "SHA-256 (hex) of the previous entry's hash and this entry: the chain `npm run audit:verify` checks.",
  },
).meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const toAuditEntry = rowShape<typeof auditEntrySchema, Omit<typeof auditLog.$inferSelect, "merchantId">>(auditEntrySchema);

export const auditEntryListSchema = listSchema(auditEntrySchema);
