/**
 * Every status a person reads, once: the values the tables store (db/schema imports them from here) and the
 * words and tone each is shown with in tables, filters and badges (docs/dashboard.md, "Statuses in words").
 * A value without words fails to compile here, and tests/unit/status-labels.test.ts fails for a status column
 * of any table whose values are not one of these groups.
 */

/** How a badge colours a status: done and fine, still under way, or needing someone's attention. */
export type StatusTone = "good" | "waiting" | "bad" | "neutral";

type Words<V extends string> = Record<V, readonly [label: string, tone: StatusTone]>;

function group<const V extends string>(values: readonly [V, ...V[]], words: Words<V>) {
  return { values, words };
}

export const paymentStatuses = ["pending", "confirmed", "failed"] as const;
export const invoiceStatuses = ["open", "processing", "paid", "expired", "void"] as const;
/** How an invoice came to be paid or stands: set with `processing` (partially paid) and `paid` (the others). */
export const invoiceStatusDetails = ["partially_paid", "overpaid", "paid_late", "marked"] as const;
export const deliveryStatuses = ["pending", "delivering", "delivered", "failed"] as const;
export const attemptTriggers = ["scheduled", "manual", "test"] as const;
export const errorClasses = ["dns", "connect", "tls", "timeout", "http", "blocked"] as const;
export const endpointStatuses = ["enabled", "disabled"] as const;
export const endpointDisabledReasons = ["manual", "failing", "gone"] as const;
export const reconciliationStatuses = ["processing", "complete"] as const;
export const reconciliationLineStatuses = ["matched", "mismatched", "missingInLedger", "missingInFile", "malformed"] as const;
export const merchantStatuses = ["active", "suspended"] as const;
export const apiKeyStatuses = ["active", "expiring", "expired", "revoked"] as const;
export const publishedKeyStatuses = ["active", "retired", "revoked"] as const;
/** A refund's life (docs/refunds.md, "States"). */
export const refundStatuses = ["requires_action", "pending", "succeeded", "failed", "canceled"] as const;
/** Refunds that still hold part of their payment: their sum never exceeds it (docs/refunds.md, "Never more than was paid"). */
export const refundHoldingStatuses = ["requires_action", "pending", "succeeded"] as const satisfies readonly (typeof refundStatuses)[number][];
/** Whether a refund in `status` holds part of its payment (one of refundHoldingStatuses). */
export function refundHolds(status: string): boolean {
  return (refundHoldingStatuses as readonly string[]).includes(status);
}
/** How much of a payment its succeeded refunds gave back. */
export const paymentRefundStatuses = ["none", "partial", "full"] as const;
/** Who made an audit log entry (docs/team-and-security.md, "Audit log"). */
export const auditActorTypes = ["api_key", "user", "staff", "system", "anonymous"] as const;

export const STATUS_GROUPS = {
  payment: group(paymentStatuses, { pending: ["pending", "waiting"], confirmed: ["confirmed", "good"], failed: ["failed", "bad"] }),
  invoice: group(invoiceStatuses, {
    open: ["open", "neutral"],
    processing: ["processing", "waiting"],
    paid: ["paid", "good"],
    expired: ["expired", "bad"],
    void: ["void", "neutral"],
  }),
  invoiceDetail: group(invoiceStatusDetails, {
    partially_paid: ["partially paid", "waiting"],
    overpaid: ["overpaid", "waiting"],
    paid_late: ["paid late", "neutral"],
    marked: ["marked paid by hand", "neutral"],
  }),
  delivery: group(deliveryStatuses, {
    pending: ["pending", "waiting"],
    delivering: ["delivering", "waiting"],
    delivered: ["delivered", "good"],
    failed: ["failed", "bad"],
  }),
  attemptTrigger: group(attemptTriggers, { scheduled: ["scheduled", "neutral"], manual: ["retried by hand", "neutral"], test: ["test send", "neutral"] }),
  errorClass: group(errorClasses, {
    dns: ["name not found (DNS)", "bad"],
    connect: ["could not connect", "bad"],
    tls: ["TLS handshake failed", "bad"],
    timeout: ["timed out", "bad"],
    http: ["error answer", "bad"],
    blocked: ["address not allowed", "bad"],
  }),
  endpoint: group(endpointStatuses, { enabled: ["enabled", "good"], disabled: ["disabled", "bad"] }),
  endpointDisabledReason: group(endpointDisabledReasons, {
    manual: ["disabled by you", "neutral"],
    failing: ["every attempt failed", "bad"],
    gone: ["answered 410 Gone", "bad"],
  }),
  reconciliation: group(reconciliationStatuses, { processing: ["processing", "waiting"], complete: ["complete", "good"] }),
  reconciliationLine: group(reconciliationLineStatuses, {
    matched: ["matched", "good"],
    mismatched: ["mismatched", "bad"],
    missingInLedger: ["missing in ledger", "waiting"],
    missingInFile: ["missing in file", "waiting"],
    malformed: ["malformed", "bad"],
  }),
  merchant: group(merchantStatuses, { active: ["active", "good"], suspended: ["suspended", "bad"] }),
  apiKey: group(apiKeyStatuses, { active: ["active", "good"], expiring: ["expiring", "waiting"], expired: ["expired", "bad"], revoked: ["revoked", "bad"] }),
  publishedKey: group(publishedKeyStatuses, { active: ["active", "good"], retired: ["retired", "waiting"], revoked: ["revoked", "bad"] }),
  refund: group(refundStatuses, {
    requires_action: ["waiting for the payer's claim", "waiting"],
    pending: ["pending", "waiting"],
    succeeded: ["succeeded", "good"],
    failed: ["failed", "bad"],
    canceled: ["canceled", "neutral"],
  }),
  paymentRefund: group(paymentRefundStatuses, { none: ["not refunded", "neutral"], partial: ["partly refunded", "waiting"], full: ["fully refunded", "neutral"] }),
  auditActor: group(auditActorTypes, {
    api_key: ["API key", "neutral"],
    user: ["team member", "neutral"],
    staff: ["support staff", "waiting"],
    system: ["the service", "neutral"],
    anonymous: ["not signed in", "bad"],
  }),
};

export type StatusKind = keyof typeof STATUS_GROUPS;
export type StatusOf<K extends StatusKind> = (typeof STATUS_GROUPS)[K]["values"][number];

/** The values of one kind, in their stored order (for filters). */
export function statusValues<K extends StatusKind>(kind: K): readonly StatusOf<K>[] {
  return STATUS_GROUPS[kind].values as readonly StatusOf<K>[];
}

/** A status in words: `partially paid`, `missing in file`. */
export function statusLabel<K extends StatusKind>(kind: K, value: StatusOf<K>): string {
  return (STATUS_GROUPS[kind].words as Words<string>)[value]?.[0] ?? String(value);
}

export function statusTone<K extends StatusKind>(kind: K, value: StatusOf<K>): StatusTone {
  return (STATUS_GROUPS[kind].words as Words<string>)[value]?.[1] ?? "neutral";
}
