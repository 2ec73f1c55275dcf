import { monotonicFactory } from "ulid";

/**
 * Prefixed, time-sortable ids: `pay_01JD…`. The prefix says what an id is (in logs, support tickets and
 * leaked keys alike); the ULID body sorts by creation time, monotonically within one millisecond.
 */
export const ID_PREFIXES = {
  merchant: "mer",
  payment: "pay",
  event: "evt",
  delivery: "whd",
  attempt: "wha",
  apiKey: "key",
  publishedKey: "pk",
  user: "usr",
  audit: "aud",
  webhookSecret: "whs",
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const nextUlid = monotonicFactory();

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${nextUlid().toLowerCase()}`;
}

const ID_BODY = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` looks like an id of this kind; used to answer 404 without a query for junk ids. */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}
