import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDatabase } from "../../../src/server/db/open";
import { webhookDeliveries, webhookEndpointBreakers } from "../../../src/server/db/schema";
import type { DatabaseHandle } from "../../../src/server/db/types";
import { emitEvent } from "../../../src/server/services/events/emit";
import { retryDelivery } from "../../../src/server/services/webhooks/retry";
import type { DeliveryDeps } from "../../../src/server/webhooks/attempt";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { startWebhookWorker, type WebhookWorker, type WorkerOptions } from "../../../src/server/webhooks/worker";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { refusingUrl, startHangingEndpoint, type HangingEndpoint } from "../../support/webhook-endpoints";
import { startReceiver, type TestReceiver } from "./receiver";
import { eventually } from "./processes";
import { defaultEndpointId, seedDueDeliveries } from "./seed";

/*
 * Delivery isolation (docs/webhooks.md, "Delivery isolation"): one merchant's hanging, slow, refusing or failing
 * endpoint, with hundreds of deliveries due, must not delay another merchant's deliveries by more than a second.
 */

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let hanging: HangingEndpoint;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  hanging = await startHangingEndpoint();
});
afterAll(async () => {
  await hanging.close();
  await receiver.close();
  await runtime.close();
});

/** Short network timeouts: a hanging attempt lasts 3 s here instead of 15 s, still longer than a test's window. */
const deps = (overrides: Partial<DeliveryDeps> = {}) =>
  deliveryDepsFor(runtime, { send: { connectTimeoutMs: 1_000, totalTimeoutMs: 3_000 }, schedule: [0, 60_000], ...overrides });

async function merchantAt(url: string): Promise<TestMerchant> {
  return registerTestMerchant(api, { webhookUrl: url });
}

/** Emits `count` events for a healthy merchant, `gapMs` apart; resolves with each event's id and commit time. */
async function emitSpread(merchant: TestMerchant, count: number, gapMs: number) {
  const committed = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const { event } = await emitEvent({ ctx: merchantContext(runtime, merchant.merchant.id), input: { type: "payment.confirmed", data: { i } } });
    committed.set(event.id, Date.now());
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return committed;
}

/** Commit → arrival at the receiver, per event (ms), once all have arrived. */
async function lagsOf(committed: Map<string, number>, timeoutMs = 10_000): Promise<number[]> {
  const arrivals = () => new Map(receiver.received.map((request) => [request.headers["webhook-id"]!, request.at]));
  await eventually(() => [...committed.keys()].every((id) => arrivals().has(id)), timeoutMs, "every healthy webhook");
  const at = arrivals();
  return [...committed].map(([id, commit]) => at.get(id)! - commit);
}

async function run<T>(options: WorkerOptions, depsOverrides: Partial<DeliveryDeps>, body: (worker: WebhookWorker) => Promise<T>): Promise<T> {
  const worker = startWebhookWorker(deps(depsOverrides), { listen: runtime.database.listen, ...options });
  try {
    return await body(worker);
  } finally {
    await worker.stop();
  }
}

describe("one endpoint failing never delays another merchant's webhooks", () => {
  const failures: [string, () => Promise<string>][] = [
    ["hangs", async () => hanging.url],
    ["answers slowly", async () => receiver.url("/slow")],
    ["refuses connections", refusingUrl],
    ["answers 500", async () => receiver.url("/fails")],
  ];

  it.each(failures)("an endpoint that %s, with 300 deliveries due", async (_name, urlOf) => {
    receiver.respond = (request, response) => {
      if (request.path === "/slow") setTimeout(() => response.writeHead(200).end("slow"), 2_500);
      else if (request.path === "/fails") response.writeHead(500).end("down");
      else response.writeHead(200).end("ok");
    };
    const healthy = [await merchantAt(receiver.url("/a")), await merchantAt(receiver.url("/b"))];
    const healthyLags = () =>
      run({ pollIntervalMs: 1_000 }, {}, async () => {
        const committed = await Promise.all(healthy.map((merchant) => emitSpread(merchant, 10, 50)));
        return lagsOf(new Map(committed.flatMap((map) => [...map])));
      });
    // The same traffic alone first: what this machine takes anyway (a loaded CI box, PGlite in this process).
    const alone = await healthyLags();
    const noisy = await merchantAt(await urlOf());
    await seedDueDeliveries(runtime.database.db, { merchantId: noisy.merchant.id, url: noisy.merchant.webhookUrl!, count: 300, now: runtime.now() });
    hanging.maxOpen = 0;
    const beside = await healthyLags();
    expect(beside).toHaveLength(20);
    // The noisy endpoint delays none of them by a second or more.
    expect(Math.max(...beside)).toBeLessThan(Math.max(...alone) + 1_000);
    // And it never held more requests than its bound.
    expect(hanging.maxOpen).toBeLessThanOrEqual(16);
    await runtime.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.merchantId, noisy.merchant.id));
  });
});

describe("the endpoint breaker", () => {
  it("opens after consecutive failures, defers the endpoint's deliveries without failing them, probes after the cool-down, and closes on success", async () => {
    let up = false;
    receiver.respond = (request, response) => {
      if (request.path === "/flaky") response.writeHead(up ? 200 : 503).end(up ? "ok" : "down");
      else response.writeHead(200).end("ok");
    };
    const shop = await merchantAt(receiver.url("/flaky"));
    const endpointId = await defaultEndpointId(runtime.database.db, shop.merchant.id);
    const { deliveryIds } = await seedDueDeliveries(runtime.database.db, { merchantId: shop.merchant.id, url: shop.merchant.webhookUrl!, count: 10, now: runtime.now() });
    const toFlaky = () => receiver.received.filter((request) => request.path === "/flaky").length;
    const rows = () => runtime.database.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, deliveryIds));
    const breaker = async () =>
      (await runtime.database.db.select().from(webhookEndpointBreakers).where(eq(webhookEndpointBreakers.endpointId, endpointId)))[0];

    await run({ perEndpoint: 1, pollIntervalMs: 20 }, { breaker: { failureThreshold: 3, cooldownMs: 700 }, schedule: [0] }, async () => {
      // Three failures in a row open it; nothing more is sent during the cool-down.
      await eventually(() => toFlaky() >= 3, 5_000, "three attempts");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(toFlaky()).toBe(3);
      expect(await breaker()).toMatchObject({ consecutiveFailures: 3 });
      expect((await breaker())!.openUntil!.getTime()).toBeGreaterThan(runtime.now().getTime());
      // The schedule is one attempt: the three attempted are failed, the seven deferred are untouched.
      const deferred = (await rows()).filter((row) => row.attemptCount === 0);
      expect(deferred).toHaveLength(7);
      expect(deferred.every((row) => row.status === "pending" && row.nextAttemptAt !== null)).toBe(true);
      expect((await rows()).filter((row) => row.status === "failed")).toHaveLength(3);

      // Half-open after the cool-down: one probe, which fails and opens it again.
      await eventually(() => toFlaky() >= 4, 3_000, "the probe");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(toFlaky()).toBe(4);

      // The endpoint recovers: the next probe succeeds, the breaker closes and the backlog flows.
      up = true;
      await eventually(async () => (await rows()).every((row) => row.status !== "pending"), 5_000, "the backlog");
    });
    const final = await rows();
    expect(final.filter((row) => row.status === "delivered")).toHaveLength(6);
    expect(final.filter((row) => row.status === "failed")).toHaveLength(4);
    expect(final.every((row) => row.attemptCount === 1)).toBe(true);
    expect(await breaker()).toMatchObject({ consecutiveFailures: 0, openUntil: null });
  });
});

describe("several workers on one database", () => {
  it("claim each delivery exactly once and hold the endpoint bound between them, with a hanging endpoint present", async () => {
    receiver.respond = (_request, response) => response.writeHead(200).end("ok");
    const noisy = await merchantAt(hanging.url);
    const shop = await merchantAt(receiver.url("/many"));
    await seedDueDeliveries(runtime.database.db, { merchantId: noisy.merchant.id, url: hanging.url, count: 100, now: runtime.now() });
    const { eventIds } = await seedDueDeliveries(runtime.database.db, { merchantId: shop.merchant.id, url: shop.merchant.webhookUrl!, count: 120, now: runtime.now() });
    // On the server, the second worker has a pool (and a LISTEN connection) of its own, as a second process would.
    const url = (runtime.database as DatabaseHandle & { url?: string }).url;
    const second = url ? await openServerDatabase(url, { max: 4 }) : runtime.database;
    const options = { perEndpoint: 3, concurrency: 16, pollIntervalMs: 20 };
    const workers = [
      startWebhookWorker(deps(), { ...options, listen: runtime.database.listen }),
      startWebhookWorker(deps({ db: second.db }), { ...options, listen: second.listen }),
    ];
    // The bound as the claim holds it: the endpoint's deliveries `delivering` under a live lease, in any worker.
    let mostInFlight = 0;
    const inFlightAtHanging = async () => {
      const rows = await runtime.database.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.merchantId, noisy.merchant.id), eq(webhookDeliveries.status, "delivering")));
      mostInFlight = Math.max(mostInFlight, rows.length);
    };
    try {
      const counts = () => receiver.countById();
      await eventually(async () => (await inFlightAtHanging(), eventIds.every((id) => counts().has(id))), 20_000, "every delivery");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(eventIds.filter((id) => counts().get(id) !== 1)).toEqual([]);
      expect(mostInFlight).toBe(3);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      if (second !== runtime.database) await second.close();
      await runtime.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.merchantId, noisy.merchant.id));
    }
  });
});

describe("wake on commit", () => {
  it("attempts a new delivery well before the next poll", async () => {
    receiver.respond = (_request, response) => response.writeHead(200).end("ok");
    const shop = await merchantAt(receiver.url("/wake"));
    const lags = await run({ pollIntervalMs: 10_000 }, {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300)); // the worker's first claim is over: it sleeps
      const committed = await emitSpread(shop, 10, 30);
      return lagsOf(committed, 5_000);
    });
    // Polling alone would take up to 10 s.
    expect(Math.max(...lags)).toBeLessThan(1_000);
  });

  it("attempts a manual retry at once, even while the endpoint's breaker is open", async () => {
    let up = false;
    receiver.respond = (request, response) => response.writeHead(request.path === "/retry" && !up ? 500 : 200).end();
    const shop = await merchantAt(receiver.url("/retry"));
    const { deliveryIds } = await seedDueDeliveries(runtime.database.db, { merchantId: shop.merchant.id, url: shop.merchant.webhookUrl!, count: 3, now: runtime.now() });
    const row = async (id: string) => (await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
    await run({ pollIntervalMs: 10_000 }, { breaker: { failureThreshold: 3, cooldownMs: 60_000 }, schedule: [0] }, async () => {
      await eventually(async () => (await row(deliveryIds[2]!)).status === "failed" && (await row(deliveryIds[0]!)).status === "failed", 5_000, "three failures");
      up = true;
      const before = receiver.received.length;
      const asked = Date.now();
      await retryDelivery({ ctx: merchantContext(runtime, shop.merchant.id), input: { id: deliveryIds[0]! } });
      await eventually(() => receiver.received.length > before, 5_000, "the retried attempt");
      // The breaker's cool-down (a minute) and the poll (10 s) would both be far longer.
      expect(receiver.received.at(-1)!.at - asked).toBeLessThan(1_000);
      await eventually(async () => (await row(deliveryIds[0]!)).status === "delivered", 5_000, "the retry recorded");
    });
  });
});
