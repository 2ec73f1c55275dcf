import { sql } from "drizzle-orm";
import type { BenchDatabase } from "./env";
import type { CpuTargets } from "./load";
import type { Server } from "./proc";
import type { Report } from "./report";

export interface Merchant {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

/** What every case gets: the database, the running servers, a seeded merchant, the report. */
export interface BenchContext {
  db: BenchDatabase;
  /** The app (its production build). */
  next: Server;
  bare: Server;
  /** The floor app (bench/floor): the floor's bare SQL in Next.js route handlers. */
  floor: Server;
  /** The same floor build under run-time options that cut per-request work (lib/env.ts TUNED). */
  floorTuned: Server;
  merchant: Merchant;
  /** A payment of `merchant` (case 1 and 2 GETs). */
  paymentId: string;
  report: Report;
  logDir: string;
  /** CPU targets for a server: its process tree and the PostgreSQL backends of the bench database. */
  targets(server: Server): CpuTargets;
  nextPort(): number;
}

export const baseUrl = (server: Server) => `http://127.0.0.1:${server.port}`;

/** Registers a merchant through the API (its key and webhook secret are only shown then). */
export async function registerMerchant(server: Server, label: string, webhookUrl?: string): Promise<Merchant> {
  const response = await fetch(`${baseUrl(server)}/api/v1/merchant/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name: `Bench ${label}`,
      email: `bench-${label}-${Date.now()}@example.com`,
      password: "bench-password-123456",
      ...(webhookUrl ? { webhookUrl } : {}),
    }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { merchant: { id: string }; apiKey: string; webhookSecret: string };
  return { id: body.merchant.id, apiKey: body.apiKey, webhookSecret: body.webhookSecret };
}

/**
 * `count` payments for a merchant in one INSERT … SELECT generate_series statement, newest first by
 * created_at one millisecond apart; ids are valid payment ids (`pay_` + 26 characters).
 */
export async function seedPayments(db: Pick<BenchDatabase, "query">, merchantId: string, count: number, tag: string): Promise<void> {
  await db.query(sql`
    insert into payments (id, merchant_id, external_id, amount, currency, status, confirmed_at, created_at, updated_at)
    select 'pay_' || ${tag} || lpad(i::text, ${26 - tag.length}, '0'), ${merchantId}, ${"seed-" + tag + "-"} || i, '19.99', 'USD', 'confirmed',
           now() - i * interval '1 millisecond', now() - i * interval '1 millisecond', now() - i * interval '1 millisecond'
    from generate_series(1, ${count}::int) as i`);
}

/** Does the app serve this route yet (it answers something other than 404/405; GETs get an existing id)? */
export async function routeExists(server: Server, method: string, path: string, apiKey: string): Promise<boolean> {
  const response = await fetch(`${baseUrl(server)}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: method === "GET" ? undefined : "{}",
  });
  await response.arrayBuffer();
  return response.status !== 404 && response.status !== 405;
}
