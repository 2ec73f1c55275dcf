import { eq } from "drizzle-orm";
import { and } from "drizzle-orm";
import { merchants, webhookEndpoints } from "../../src/server/db/schema";
import { generateKeyPair, publicJwk } from "./key-fixtures";
import { seedFailedDelivery } from "../integration/webhooks/seed";
import { externalId } from "./payments";
import { keyOf, type SecurityContext, type SecurityFixture } from "./security-suite";

/** Records a confirmed payment through the API with that merchant's key; its id. */
async function createPayment({ api }: SecurityContext, apiKey: string): Promise<string> {
  const created = await api.post("/payment/confirm", { key: apiKey, body: { externalId: externalId("sec"), amount: "1.00", currency: "USD" } });
  return created.body.id;
}

/** Creates an open invoice through the API with that merchant's key; its id. */
async function createInvoice({ api }: SecurityContext, apiKey: string): Promise<string> {
  const created = await api.post("/invoice", { key: apiKey, body: { amount: "5.00", currency: "EUR" } });
  return created.body.id;
}

/** Refunds part of a new confirmed payment through the API with that merchant's key; the refund's id. */
async function createRefund(ctx: SecurityContext, apiKey: string, body: Record<string, unknown> = {}): Promise<string> {
  const created = await ctx.api.post("/refund", { key: apiKey, body: { paymentId: await createPayment(ctx, apiKey), amount: "0.50", ...body } });
  return created.body.id;
}

/** Retries need a webhook URL to go to (409 `webhook_url_missing` otherwise); the suite's merchants have none. */
async function giveWebhookUrl({ runtime }: SecurityContext, merchantId: string) {
  await runtime.database.db.update(merchants).set({ webhookUrl: "https://hooks.example.com/in" }).where(eq(merchants.id, merchantId));
  await runtime.database.db
    .update(webhookEndpoints)
    .set({ url: "https://hooks.example.com/in" })
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.isDefault, true)));
}

/** Adds a webhook endpoint through the API with that merchant's key; its id. */
async function createEndpoint({ api }: SecurityContext, apiKey: string): Promise<string> {
  const created = await api.post("/webhook/endpoint", { key: apiKey, body: { url: "https://hooks.example.com/second" } });
  return created.body.endpoint.id;
}

const publishableKey = () => ({ jwk: publicJwk(generateKeyPair("Ed25519").publicKey), use: "sig" });

/**
 * One entry per route with `auth: "api_key"` in src/server/http/routes/index.ts, keyed `"METHOD /path"`
 * exactly as the route declares it. tests/integration/security.test.ts fails while a route has none.
 *
 * Pick the kind that fits and return a request the owner's key must get a 2xx for:
 * - `resource`: the path names one of the owner's resources; create it first if needed (through the API
 *   with `api` and `owner.apiKey`, or a service verb). Another merchant's key must get 404.
 * - `list`: `seed(ctx, merchant)` creates one row for that merchant and returns its id; the request must
 *   not name a merchant (both merchants' keys send it).
 * - `action`: no id in the path; only the key checks run.
 *
 * Example:
 *   "GET /payment/{id}": {
 *     kind: "resource",
 *     request: async ({ api, owner }) => {
 *       const created = await api.post("/payment/confirm", { key: owner.apiKey, body: { … } });
 *       return { path: `/payment/${created.body.id}` };
 *     },
 *   },
 */
/** A settlement file with one line, as `POST /reconciliation` takes it. */
const settlementFile = (payment = "sec-unknown") => ({
  rawBody: `externalId,amount,currency\n${payment},1.00,USD\n`,
  headers: { "content-type": "text/csv" },
});

export const securityFixtures: Record<string, SecurityFixture> = {
  // `seconds: 0`: the events so far, then the stream ends (tests/integration/event-stream.test.ts holds it open).
  "GET /event/stream": { kind: "action", request: () => ({ path: "/event/stream", query: { seconds: 0 } }) },
  "GET /merchant/{id}": {
    kind: "resource",
    mode: "merchant",
    request: ({ owner }) => ({ path: `/merchant/${owner.merchant.id}` }),
  },
  "PUT /merchant/{id}": {
    kind: "resource",
    mode: "settings",
    request: ({ owner }) => ({ path: `/merchant/${owner.merchant.id}`, body: { name: "Renamed by the security suite" } }),
  },
  // Mode data on the merchant's path: each key reads and replaces its own mode's list (both 2xx; the separation
  // itself is asserted in tests/integration/payment-methods.test.ts).
  "GET /merchant/{id}/payment-methods": {
    kind: "resource",
    mode: "merchant",
    request: ({ owner }) => ({ path: `/merchant/${owner.merchant.id}/payment-methods` }),
  },
  "PUT /merchant/{id}/payment-methods": {
    kind: "resource",
    mode: "merchant",
    request: ({ owner }) => ({
      path: `/merchant/${owner.merchant.id}/payment-methods`,
      body: { methods: [{ type: "link", label: "Pay", url: "https://pay.example/security-suite" }] },
    }),
  },
  "POST /merchant/api-key": {
    kind: "action",
    request: () => ({ path: "/merchant/api-key", body: { mode: "test", name: "security suite" } }),
  },
  "POST /merchant/keys/publish": {
    kind: "action",
    mode: "settings",
    request: () => ({ path: "/merchant/keys/publish", body: { keys: [publishableKey()] } }),
  },
  "POST /merchant/keys/{id}/revoke": {
    kind: "resource",
    mode: "settings",
    request: async ({ api, owner }) => {
      const published = await api.post("/merchant/keys/publish", { key: owner.apiKey, body: { keys: [publishableKey()] } });
      return { path: `/merchant/keys/${published.body.data[0].id}/revoke` };
    },
  },
  "POST /payment/confirm": {
    kind: "action",
    request: () => ({ path: "/payment/confirm", body: { externalId: externalId("sec"), amount: "9.99", currency: "EUR" } }),
  },
  "GET /payment": {
    kind: "list",
    seed: (ctx, merchant, mode) => createPayment(ctx, keyOf(ctx, merchant, mode)),
    request: () => ({ path: "/payment", query: { limit: 100 } }),
  },
  "GET /payment/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/payment/${await createPayment(ctx, ctx.owner.apiKey)}` }),
  },
  "POST /invoice": {
    kind: "action",
    request: () => ({ path: "/invoice", body: { amount: "12.50", currency: "EUR" } }),
  },
  "GET /invoice": {
    kind: "list",
    seed: (ctx, merchant, mode) => createInvoice(ctx, keyOf(ctx, merchant, mode)),
    request: () => ({ path: "/invoice", query: { limit: 100 } }),
  },
  "GET /invoice/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/invoice/${await createInvoice(ctx, ctx.owner.apiKey)}` }),
  },
  "POST /invoice/{id}/void": {
    kind: "resource",
    request: async (ctx) => ({ path: `/invoice/${await createInvoice(ctx, ctx.owner.apiKey)}/void` }),
  },
  "GET /merchant/{id}/stats": {
    kind: "resource",
    mode: "merchant",
    request: ({ owner }) => ({ path: `/merchant/${owner.merchant.id}/stats` }),
  },
  "GET /webhook/failed": {
    kind: "list",
    seed: ({ runtime }, merchant, mode) => seedFailedDelivery(runtime.database.db, merchant.merchant.id, { livemode: mode === "live" }),
    request: () => ({ path: "/webhook/failed" }),
  },
  "POST /webhook/failed/retry": {
    kind: "action",
    request: async (ctx) => {
      await giveWebhookUrl(ctx, ctx.owner.merchant.id);
      return { path: "/webhook/failed/retry", body: { dryRun: true } };
    },
  },
  "GET /webhook/{id}": {
    kind: "resource",
    request: async ({ runtime, owner }) => ({ path: `/webhook/${await seedFailedDelivery(runtime.database.db, owner.merchant.id)}` }),
  },
  "POST /webhook/{id}/retry": {
    kind: "resource",
    request: async (ctx) => {
      await giveWebhookUrl(ctx, ctx.owner.merchant.id);
      return { path: `/webhook/${await seedFailedDelivery(ctx.runtime.database.db, ctx.owner.merchant.id)}/retry` };
    },
  },
  "POST /webhook/test": {
    kind: "action",
    request: () => ({ path: "/webhook/test", body: { dryRun: true } }),
  },
  "POST /webhook/verify": {
    kind: "action",
    request: () => ({ path: "/webhook/verify", body: { payload: "{}", headers: {} } }),
  },
  "POST /webhook/endpoint": {
    kind: "action",
    request: () => ({ path: "/webhook/endpoint", body: { url: "https://hooks.example.com/added" } }),
  },
  "GET /webhook/endpoint": {
    kind: "list",
    seed: (ctx, merchant, mode) => createEndpoint(ctx, keyOf(ctx, merchant, mode)),
    request: () => ({ path: "/webhook/endpoint" }),
  },
  "GET /webhook/endpoint/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/webhook/endpoint/${await createEndpoint(ctx, ctx.owner.apiKey)}` }),
  },
  "PUT /webhook/endpoint/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/webhook/endpoint/${await createEndpoint(ctx, ctx.owner.apiKey)}`, body: { description: "changed" } }),
  },
  "DELETE /webhook/endpoint/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/webhook/endpoint/${await createEndpoint(ctx, ctx.owner.apiKey)}` }),
  },
  "POST /webhook/endpoint/{id}/rotate-secret": {
    kind: "resource",
    request: async (ctx) => ({ path: `/webhook/endpoint/${await createEndpoint(ctx, ctx.owner.apiKey)}/rotate-secret` }),
  },
  "POST /webhook/endpoint/{id}/recover": {
    kind: "resource",
    request: async (ctx) => ({
      path: `/webhook/endpoint/${await createEndpoint(ctx, ctx.owner.apiKey)}/recover`,
      body: { since: "2026-01-01T00:00:00Z" },
    }),
  },
  "GET /event": {
    kind: "list",
    seed: async (ctx, merchant, mode) => {
      const key = keyOf(ctx, merchant, mode);
      const payment = await createPayment(ctx, key);
      const events = await ctx.api.get("/event", { key, query: { subjectId: payment } });
      return events.body.data[0].id;
    },
    request: () => ({ path: "/event" }),
  },
  "GET /event/{id}": {
    kind: "resource",
    request: async (ctx) => {
      const payment = await createPayment(ctx, ctx.owner.apiKey);
      const events = await ctx.api.get("/event", { key: ctx.owner.apiKey, query: { subjectId: payment } });
      return { path: `/event/${events.body.data[0].id}` };
    },
  },
  "GET /webhook/delivery": {
    kind: "list",
    seed: ({ runtime }, merchant, mode) => seedFailedDelivery(runtime.database.db, merchant.merchant.id, { livemode: mode === "live" }),
    request: () => ({ path: "/webhook/delivery" }),
  },
  "POST /reconciliation": {
    kind: "action",
    request: () => ({ path: "/reconciliation", ...settlementFile() }),
  },
  "GET /reconciliation/{id}": {
    kind: "resource",
    request: async ({ api, owner }) => {
      const created = await api.post("/reconciliation", { key: owner.apiKey, ...settlementFile() });
      return { path: `/reconciliation/${created.body.id}` };
    },
  },
  "POST /refund": {
    kind: "resource",
    request: async (ctx) => ({ path: "/refund", body: { paymentId: await createPayment(ctx, ctx.owner.apiKey), amount: "0.25" } }),
  },
  "GET /refund": {
    kind: "list",
    seed: (ctx, merchant, mode) => createRefund(ctx, keyOf(ctx, merchant, mode)),
    request: () => ({ path: "/refund", query: { limit: 100 } }),
  },
  "GET /refund/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/refund/${await createRefund(ctx, ctx.owner.apiKey)}` }),
  },
  "POST /refund/{id}": {
    kind: "resource",
    request: async (ctx) => ({ path: `/refund/${await createRefund(ctx, ctx.owner.apiKey)}`, body: { status: "succeeded" } }),
  },
  "POST /refund/{id}/cancel": {
    kind: "resource",
    request: async (ctx) => ({ path: `/refund/${await createRefund(ctx, ctx.owner.apiKey)}/cancel` }),
  },
  "POST /test/refund/{id}/claim": {
    kind: "resource",
    mode: "test-only",
    request: async (ctx) => ({ path: `/test/refund/${await createRefund(ctx, keyOf(ctx, ctx.owner, "test"), { claim: {} })}/claim`, body: {} }),
  },
  "POST /test/refund/{id}/settle": {
    kind: "resource",
    mode: "test-only",
    request: async (ctx) => ({ path: `/test/refund/${await createRefund(ctx, keyOf(ctx, ctx.owner, "test"))}/settle`, body: { status: "succeeded" } }),
  },
  // The account's audit log: both merchants' isolation is in tests/integration/audit/list.test.ts; a test key is refused.
  "GET /audit-log": { kind: "action", mode: "settings", request: () => ({ path: "/audit-log", query: { limit: 5 } }) },
  "POST /test/invoice/{id}/pay": {
    kind: "resource",
    mode: "test-only",
    request: async (ctx) => ({ path: `/test/invoice/${await createInvoice(ctx, keyOf(ctx, ctx.owner, "test"))}/pay`, body: {} }),
  },
};
