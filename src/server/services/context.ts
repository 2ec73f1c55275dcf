import type { Logger } from "pino";
import type { Env } from "@/env";
import type { Executor } from "@/server/db/types";
import type { RequestClient } from "@/server/net/request-client";
import { ServiceError } from "./errors";

/**
 * Who is acting. The merchant a verb works on always comes from here, never from input; so does the mode
 * (docs/test-mode.md): `livemode` is the API key's, or the dashboard's test-mode switch. Staff and the system
 * act in live mode unless they name the mode of the data they act on.
 */
export type Actor =
  /**
   * `restrictedTo`: a restricted key's (`rk_…`) granted permissions (`payments.read`, …), from its scopes; absent
   * for a secret key (`sk_…`), which may do everything (docs/team-and-security.md, "Restricted API keys").
   */
  | { type: "api_key"; merchantId: string; keyId: string; livemode: boolean; restrictedTo?: ReadonlySet<string> }
  /** A merchant's dashboard user; `sessionId` is the dashboard session acting (absent outside a session). */
  | { type: "user"; merchantId: string; userId: string; livemode?: boolean; sessionId?: string }
  /** Support staff; `merchantId` is set when acting on one merchant's data (read-only view, retry). */
  | { type: "staff"; userId: string; merchantId?: string; livemode?: boolean; sessionId?: string }
  | { type: "system"; merchantId?: string; livemode?: boolean }
  /** An unauthenticated caller (register, login); `ip` feeds rate limits, never stored. */
  | { type: "anonymous"; ip?: string };

export interface ServiceContext {
  requestId: string;
  /** The primary (or the transaction the verb runs in): every write, and every read a write depends on. */
  db: Executor;
  /**
   * Where lists, search, statistics, exports and reconciliation's reads go: a replica when one is configured and
   * has replayed this actor's own writes, else the primary (docs/operations.md, "Pooler and replica"). Inside a
   * transaction it is that transaction.
   */
  reader: Executor;
  actor: Actor;
  log: Logger;
  env: Env;
  /** Injected clock: tests move time instead of sleeping. */
  now: () => Date;
  /**
   * Where the request came from (the client's address, its User-Agent), for the audit log; absent for the system and
   * scripts. Adapters take it from the request (REST, tRPC, the dashboard's forms); verbs never read a request.
   */
  client?: RequestClient;
}

export type { RequestClient };

/** The merchant whose data this context may touch, or a 401-style error when there is none. */
export function requireMerchantId(ctx: ServiceContext): string {
  const { actor } = ctx;
  if ((actor.type === "api_key" || actor.type === "user") && actor.merchantId) return actor.merchantId;
  if ((actor.type === "staff" || actor.type === "system") && actor.merchantId) return actor.merchantId;
  throw new ServiceError("unauthenticated", "This action needs an authenticated merchant.");
}

/**
 * The mode of the data this context sees and makes: `false` for test mode. Every query on payments, invoices,
 * events, deliveries, endpoints and reconciliations filters on it next to the merchant (docs/test-mode.md).
 */
export function livemodeOf(ctx: ServiceContext): boolean {
  const { actor } = ctx;
  return actor.type === "anonymous" ? true : (actor.livemode ?? true);
}

/** The merchant and mode a merchant-scoped query filters on (`requireMerchantId` plus `livemodeOf`). */
export function requireMerchantScope(ctx: ServiceContext): MerchantScope {
  return { merchantId: requireMerchantId(ctx), livemode: livemodeOf(ctx) };
}

export interface MerchantScope {
  merchantId: string;
  livemode: boolean;
}

/**
 * The merchant a change is made for. Staff open a merchant read-only: the few writes they may make on a
 * merchant's behalf (retrying a delivery, reconciling) have verbs of their own that allow it explicitly.
 */
export function requireMerchantWriter(ctx: ServiceContext): string {
  if (ctx.actor.type === "staff") throw new ServiceError("forbidden", "Support staff cannot change merchant settings.");
  return requireMerchantId(ctx);
}

/**
 * The merchant whose account-wide settings (profile, webhook URL, published keys, live API keys) a change is made
 * for. Those serve live traffic, so an `sk_test_` key cannot change them: a leaked test key must never redirect
 * live webhooks or swap the keys the world trusts (docs/test-mode.md). The dashboard can, whatever its switch says.
 */
export function requireSettingsWriter(ctx: ServiceContext): string {
  const merchantId = requireMerchantWriter(ctx);
  if (ctx.actor.type === "api_key" && !ctx.actor.livemode) {
    throw new ServiceError("forbidden", "A test key cannot change your account's settings; use a live key or the dashboard.");
  }
  return merchantId;
}

/**
 * Who may mark payments reconciled: support staff (for any merchant, or the one they opened) and a
 * merchant's dashboard users for their own payments (docs/reconciliation.md). `merchantId` is the scope
 * (absent for staff acting across merchants).
 */
export function requireReconciler(ctx: ServiceContext): { userId: string; merchantId?: string } {
  const { actor } = ctx;
  if (actor.type === "staff") return { userId: actor.userId, merchantId: actor.merchantId };
  if (actor.type === "user" && actor.merchantId) return { userId: actor.userId, merchantId: actor.merchantId };
  throw new ServiceError("forbidden", "Only support staff and the merchant's own users reconcile payments.");
}

export function requireStaff(ctx: ServiceContext): Extract<Actor, { type: "staff" }> {
  if (ctx.actor.type !== "staff") throw new ServiceError("forbidden", "Support staff only.");
  return ctx.actor;
}

/**
 * Who a read-after-write guarantee is for (db/read-routing.ts): an API key, or a dashboard user (merchant or staff).
 * The system and anonymous callers read what the replica has.
 */
export function writerOf(actor: Actor): string | undefined {
  if (actor.type === "api_key") return `key:${actor.keyId}`;
  if (actor.type === "user" || actor.type === "staff") return `user:${actor.userId}`;
  return undefined;
}

/** Id written to the audit log for the acting principal. */
export function actorId(actor: Actor): string | null {
  switch (actor.type) {
    case "api_key":
      return actor.keyId;
    case "user":
    case "staff":
      return actor.userId;
    default:
      return null;
  }
}

/**
 * The same context inside a transaction (services pass it down to the verbs they compose). Copied by
 * property descriptor rather than spread: a spread would call the lazy `log` getter (create-context.ts) and
 * build a child logger on every transactional request, used or not.
 */
export function inTransaction(ctx: ServiceContext, tx: Executor): ServiceContext {
  return Object.defineProperties({} as ServiceContext, {
    ...Object.getOwnPropertyDescriptors(ctx),
    db: { value: tx, enumerable: true, writable: true, configurable: true },
    reader: { value: tx, enumerable: true, writable: true, configurable: true },
  });
}

/** The same context reading from the primary: a verb that reads back what it has just written, in the same request. */
export function readingPrimary(ctx: ServiceContext): ServiceContext {
  return Object.defineProperties({} as ServiceContext, {
    ...Object.getOwnPropertyDescriptors(ctx),
    reader: { value: ctx.db, enumerable: true, writable: true, configurable: true },
  });
}

/**
 * The signed-in person acting on their own account (password, second factors, sessions): any dashboard user,
 * merchant's or staff, whatever their role; no merchant permission is involved. `sessionId` is the session asking.
 */
export function requireSelf(ctx: ServiceContext): { userId: string; sessionId?: string } {
  const { actor } = ctx;
  if (actor.type === "user" || actor.type === "staff") return { userId: actor.userId, sessionId: actor.sessionId };
  throw new ServiceError("unauthenticated", "Sign in first.");
}
