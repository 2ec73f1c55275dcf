import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../../../src/server/db/rows";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliveryAttempts, webhookDeliveries } from "../../../src/server/db/schema";
import { emitEvent } from "../../../src/server/services/events/emit";
import { rotateWebhookSecret } from "../../../src/server/services/webhooks/rotate-secret";
import { attemptDelivery, withSigningSecrets } from "../../../src/server/webhooks/attempt";
import { claimDueDeliveries, releaseExpiredLeases, type Claim } from "../../../src/server/webhooks/claim";
import { createAttemptRecorder } from "../../../src/server/webhooks/record";
import { verifySignature } from "../../../src/server/webhooks/signing";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { startWebhookWorker } from "../../../src/server/webhooks/worker";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { startReceiver, type ReceivedWebhook, type TestReceiver } from "./receiver";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;

// Three attempts a minute apart, then failed; jitter pinned to its centre. Tests move the clock instead of waiting.
const MINUTE = 60_000;
const deps = () => deliveryDepsFor(runtime, { random: () => 0.5, schedule: [0, MINUTE, 2 * MINUTE] });

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});
beforeEach(async () => {
  // Each test starts with an empty outbox: leftovers of another test must not be claimed here.
  await runtime.database.db.delete(webhookDeliveries);
  receiver.received.length = 0;
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
});

async function emit(data: Record<string, unknown> = { id: "pay_x", amount: "19.99", currency: "EUR" }) {
  const { event, deliveryId } = await emitEvent({
    ctx: merchantContext(runtime, shop.merchant.id),
    input: { type: "payment.confirmed", data, subjectId: "pay_x" },
  });
  expect(deliveryId).toMatch(/^whd_/);
  return { event, deliveryId: deliveryId! };
}

/** Claims as a worker would (after handing back the leases of dead workers). */
async function claim(limit: number, leaseMs: number) {
  await releaseExpiredLeases(runtime.database.db, runtime.now());
  return claimDueDeliveries(runtime.database.db, { limit, leaseMs, now: runtime.now(), perEndpoint: 16 });
}

async function attempt(claimed: Claim) {
  const [loaded] = await withSigningSecrets(deps(), [claimed]);
  return attemptDelivery(deps(), loaded!);
}

async function delivery(id: string) {
  const [row] = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

async function attempts(id: string) {
  const rows = await runtime.database.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
  return rows.sort((a, b) => a.sentAt.getTime() - b.sentAt.getTime());
}

describe("webhook delivery engine", () => {
  it("delivers a signed Standard Webhooks request that the official library verifies", async () => {
    const { event, deliveryId } = await emit();
    expect(await deliverDueNow(deps())).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.headers["webhook-id"]).toBe(event.id);
    expect(request.headers["content-type"]).toBe("application/json");
    const payload = new Webhook(shop.webhookSecret).verify(request.body, request.headers);
    expect(payload).toEqual({
      type: "payment.confirmed",
      timestamp: event.createdAt.toISOString(),
      data: { id: "pay_x", amount: "19.99", currency: "EUR" },
    });

    const row = await delivery(deliveryId);
    expect(row).toMatchObject({ status: "delivered", attemptCount: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, leaseExpiresAt: null });
    expect(row.deliveredAt).toBeInstanceOf(Date);
    const [attempt] = await attempts(deliveryId);
    expect(attempt).toMatchObject({ trigger: "scheduled", statusCode: 200, errorClass: null, responseBody: "ok" });
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(attempt!.queuedAt.getTime()).toBeLessThanOrEqual(attempt!.sentAt.getTime());
    expect(attempt!.responseHeaders).toHaveProperty("date");
  });

  it("retries on failure with the same webhook-id and body, a fresh timestamp, and records every attempt", async () => {
    let calls = 0;
    receiver.respond = (_request, response) => (++calls === 1 ? response.writeHead(500).end("try later") : response.writeHead(204).end());
    const { deliveryId } = await emit();
    const before = runtime.now().getTime();
    await deliverDueNow(deps());

    const afterFirst = await delivery(deliveryId);
    expect(afterFirst).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: 500, lastError: expect.stringContaining("500") });
    // Second delay of the schedule: a minute (jitter pinned to its centre).
    expect(afterFirst.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(MINUTE);
    expect(afterFirst.nextAttemptAt!.getTime() - before).toBeLessThan(MINUTE + 5_000);
    expect(await deliverDueNow(deps())).toBe(0); // not due yet

    runtime.advanceTime(MINUTE);
    await deliverDueNow(deps());
    expect(await delivery(deliveryId)).toMatchObject({ status: "delivered", attemptCount: 2, lastStatusCode: 204, lastError: null });
    const [first, second] = receiver.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(Number(first!.headers["webhook-timestamp"]));
    const recorded = await attempts(deliveryId);
    expect(recorded.map((attempt) => [attempt.statusCode, attempt.errorClass, attempt.responseBody])).toEqual([
      [500, "http", "try later"],
      [204, null, ""],
    ]);
  });

  it("marks a delivery failed once the schedule is exhausted", async () => {
    // 404, not 410: a 410 Gone disables the endpoint (endpoint-recover-health.test.ts), this is about the schedule.
    receiver.respond = (_request, response) => response.writeHead(404).end();
    const { deliveryId } = await emit();
    for (let i = 0; i < 3; i++) {
      await deliverDueNow(deps());
      runtime.advanceTime(2 * MINUTE);
    }
    const row = await delivery(deliveryId);
    expect(row).toMatchObject({ status: "failed", attemptCount: 3, lastStatusCode: 404, nextAttemptAt: null });
    expect(row.failedAt).toBeInstanceOf(Date);
    expect(await deliverDueNow(deps())).toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it("delivers and records a delivery whose event time holds microseconds (written by SQL, or moved by a migration)", async () => {
    const { event, deliveryId } = await emit();
    // The service writes times from a JS Date (milliseconds); a row written in SQL carries the database's microseconds.
    const [moved] = rowsOf<{ at: string }>(
      await runtime.database.db.execute(sql`
        with e as (update events set created_at = created_at + interval '123 microseconds' where id = ${event.id} returning created_at)
        update webhook_deliveries set event_created_at = (select created_at from e) where id = ${deliveryId} returning event_created_at::text as at`),
    );
    expect(moved!.at).toMatch(/\.\d{6}\+00$/);

    expect(await deliverDueNow(deps())).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(await delivery(deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1, leaseExpiresAt: null });
    expect(await attempts(deliveryId)).toHaveLength(1);
  });

  it("records connection errors by class", async () => {
    const closed = await startReceiver();
    const url = closed.url();
    await closed.close();
    const { deliveryId } = await emit();
    await runtime.database.db.update(webhookDeliveries).set({ url }).where(eq(webhookDeliveries.id, deliveryId));
    await deliverDueNow(deps());
    const [attempt] = await attempts(deliveryId);
    expect(attempt).toMatchObject({ statusCode: null, errorClass: "connect" });
    expect(await delivery(deliveryId)).toMatchObject({ status: "pending", lastStatusCode: null, lastError: expect.stringContaining("ECONNREFUSED") });
  });

  it("honours Retry-After on 503 within [scheduled delay, 2 × scheduled delay]", async () => {
    receiver.respond = (_request, response) => response.writeHead(503, { "retry-after": "3600" }).end();
    const { deliveryId } = await emit();
    const before = runtime.now().getTime();
    await deliverDueNow(deps());
    const row = await delivery(deliveryId);
    // Asked for an hour; the scheduled minute allows at most two.
    const delay = row.nextAttemptAt!.getTime() - before;
    expect(delay).toBeGreaterThanOrEqual(2 * MINUTE);
    expect(delay).toBeLessThan(2 * MINUTE + 5_000);
  });

  it("re-attempts a delivery whose worker died mid-attempt once its lease expires, and fences the stale worker", async () => {
    const { deliveryId } = await emit();
    const leaseMs = 30_000;
    // Worker A claims and "dies": it never records anything.
    const [claimedByA] = await claim(10, leaseMs);
    expect(claimedByA!.delivery.id).toBe(deliveryId);
    expect(await claim(10, leaseMs)).toEqual([]);

    runtime.advanceTime(leaseMs + 1);
    const [claimedByB] = await claim(10, leaseMs);
    expect(claimedByB!.delivery.id).toBe(deliveryId);
    expect((await attempt(claimedByB!)).result).toBe("delivered");

    // Worker A was only slow, not dead: its late result must not overwrite B's.
    const late = await createAttemptRecorder(deps()).record(claimedByA!, {
      ok: false, statusCode: 500, errorClass: "http", errorMessage: "late", latencyMs: 1, responseHeaders: {}, responseBody: "",
    }, runtime.now());
    expect(late).toBe("lease_lost");
    expect(await delivery(deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1 });
  });

  it("runs several workers over one database and delivers each event exactly once", async () => {
    const ids = [];
    for (let i = 0; i < 60; i++) ids.push((await emit({ n: i })).event.id);
    const workers = [1, 2, 3].map(() => startWebhookWorker(deps(), { concurrency: 4, pollIntervalMs: 10 }));
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(workers.map((worker) => worker.stop()));
    const counts = receiver.countById();
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect(receiver.received).toHaveLength(ids.length);
  });

  it("keeps at most `concurrency` attempts in flight", async () => {
    const held: (() => void)[] = [];
    receiver.respond = (_request, response) => held.push(() => response.writeHead(200).end());
    for (let i = 0; i < 5; i++) await emit({ n: i });
    const worker = startWebhookWorker(deps(), { concurrency: 2, pollIntervalMs: 10 });
    while (receiver.received.length < 2) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 200)); // time enough for a third claim, were one allowed
    expect(receiver.received).toHaveLength(2);
    // Each answer frees a slot for the next one.
    while (receiver.received.length < 5 || held.length > 0) {
      held.shift()?.();
      await new Promise((r) => setTimeout(r, 20));
    }
    await worker.stop();
    expect(receiver.received).toHaveLength(5);
  });

  it("frees an endpoint's slot when a 2xx answer arrives, before the attempt is recorded; a failure holds it until recorded", async () => {
    // Records wait, as behind a slow database, until the test lets them through.
    let letRecordsThrough!: () => void;
    const recordsHeld = new Promise<void>((resolve) => (letRecordsThrough = resolve));
    const recorder = createAttemptRecorder(deps());
    const slowRecorder = { record: async (...args: Parameters<typeof recorder.record>) => (await recordsHeld, recorder.record(...args)) };
    let open = 0;
    let mostOpen = 0;
    let status = 200;
    receiver.respond = (_request, response) => {
      mostOpen = Math.max(mostOpen, ++open);
      const answer = status;
      setTimeout(() => (open--, response.writeHead(answer).end()), 20);
    };
    const answered = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => emit({ n })));
    const worker = startWebhookWorker({ ...deps(), recorder: slowRecorder }, { perEndpoint: 2, pollIntervalMs: 10 });
    try {
      // All six sent, two at a time, while not one attempt is recorded yet.
      while (receiver.received.length < 6) await new Promise((r) => setTimeout(r, 10));
      expect(mostOpen).toBe(2);
      expect((await Promise.all(answered.map(({ deliveryId }) => delivery(deliveryId)))).map((row) => row.status)).toEqual(Array(6).fill("delivering"));

      // Failing answers: the two sent hold the endpoint's slots until their records are written.
      status = 500;
      await Promise.all([7, 8, 9].map((n) => emit({ n })));
      while (receiver.received.length < 8) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300)); // time enough for the third, were its slot free
      expect(receiver.received).toHaveLength(8);
      letRecordsThrough();
      while (receiver.received.length < 9) await new Promise((r) => setTimeout(r, 10));
      for (const { deliveryId } of answered) while ((await delivery(deliveryId)).status !== "delivered") await new Promise((r) => setTimeout(r, 10));
    } finally {
      letRecordsThrough();
      await worker.stop();
    }
    expect(mostOpen).toBe(2);
  });

  it("delivers a retry whose event is from an earlier day while it claims today's deliveries (the days its claims look in)", async () => {
    receiver.respond = (_request, response) => response.writeHead(503).end("down");
    const { deliveryId: older } = await emit({ n: "yesterday" });
    const worker = startWebhookWorker(deps(), { pollIntervalMs: 10 });
    try {
      while ((await delivery(older)).attemptCount !== 1) await new Promise((r) => setTimeout(r, 10));
      // A day later the retry is due, in yesterday's partition; a new event's delivery lands in today's.
      receiver.respond = (_request, response) => response.writeHead(200).end("ok");
      runtime.advanceTime(24 * 60 * 60 * 1000);
      const { deliveryId: newer } = await emit({ n: "today" });
      while ((await delivery(older)).status !== "delivered" || (await delivery(newer)).status !== "delivered") {
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await worker.stop();
    }
    expect(receiver.received).toHaveLength(3);
  });

  it("lets an attempt in flight finish and be recorded when the worker stops", async () => {
    receiver.respond = (_request, response) => setTimeout(() => response.writeHead(200).end("slow ok"), 300);
    const { deliveryId } = await emit();
    const worker = startWebhookWorker(deps(), { pollIntervalMs: 10 });
    while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
    expect(await delivery(deliveryId)).toMatchObject({ status: "delivered" });
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const ctx = merchantContext(runtime, shop.merchant.id);
    const { webhookSecret: newSecret } = await rotateWebhookSecret({ ctx });
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(shop.webhookSecret);

    const check = (request: ReceivedWebhook, secret: string) =>
      verifySignature({
        payload: request.body,
        headers: { id: request.headers["webhook-id"], timestamp: request.headers["webhook-timestamp"], signature: request.headers["webhook-signature"] },
        secrets: [secret],
        // Earlier tests moved the service's clock ahead: check with that clock rather than the library's.
        now: runtime.now(),
      });

    await emit();
    await deliverDueNow(deps());
    const during = receiver.received.at(-1)!;
    expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(check(during, newSecret)).toMatchObject({ valid: true });
    expect(check(during, shop.webhookSecret)).toMatchObject({ valid: true });

    runtime.advanceTime(24 * 60 * 60 * 1000 + 1_000);
    await emit();
    await deliverDueNow(deps());
    const after = receiver.received.at(-1)!;
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(check(after, newSecret)).toMatchObject({ valid: true });
    expect(check(after, shop.webhookSecret)).toMatchObject({ valid: false, reason: "signature_mismatch" });
    shop = { ...shop, webhookSecret: newSecret };
  });

  it("records attempts in batches with the same fencing: a stale claim's attempt is kept, its delivery untouched", async () => {
    const first = await emit({ n: 1 });
    const second = await emit({ n: 2 });
    const leaseMs = 30_000;
    const claimedByA = await claim(10, leaseMs);
    expect(claimedByA.map((row) => row.delivery.id).sort()).toEqual([first.deliveryId, second.deliveryId].sort());
    // A stalls past its lease; B takes the first delivery over and delivers it.
    runtime.advanceTime(leaseMs + 1);
    const [claimedByB] = await claim(1, leaseMs);
    expect((await attempt(claimedByB!)).result).toBe("delivered");
    const staleClaim = claimedByA.find((row) => row.delivery.id === claimedByB!.delivery.id)!;
    const heldClaim = claimedByA.find((row) => row.delivery.id !== claimedByB!.delivery.id)!;
    const [stale, stillHeld] = [staleClaim.delivery, heldClaim.delivery];

    // A's two late results, recorded in the same tick, go into one transaction.
    const recorder = createAttemptRecorder(deps());
    const failed = { ok: false, statusCode: 500, errorClass: "http", errorMessage: "late", latencyMs: 1, responseHeaders: {}, responseBody: "" } as const;
    const [staleResult, heldResult] = await Promise.all([
      recorder.record(staleClaim, failed, runtime.now()),
      recorder.record(heldClaim, failed, runtime.now()),
    ]);
    expect(staleResult).toBe("lease_lost");
    // Its lease ran out and it went back to the queue (nobody took it yet): A's result moves it no more.
    expect(heldResult).toBe("lease_lost");
    expect(await delivery(stale.id)).toMatchObject({ status: "delivered", attemptCount: 1, lastStatusCode: 200 });
    expect(await delivery(stillHeld.id)).toMatchObject({ status: "pending", attemptCount: 0, leaseExpiresAt: null });
    // Every attempt made is on record, the fenced one too.
    expect((await attempts(stale.id)).map((attempt) => attempt.statusCode).sort()).toEqual([200, 500]);
    expect((await attempts(stillHeld.id)).map((attempt) => attempt.statusCode)).toEqual([500]);
  });

  it("records the rest of a batch when one of its deliveries is gone", async () => {
    const kept = await emit({ n: 1 });
    const gone = await emit({ n: 2 });
    const claimed = await claim(10, 30_000);
    // The delivery disappears meanwhile (its merchant deleted, say): its attempt row has nothing to belong to.
    await runtime.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, gone.deliveryId));
    const recorder = createAttemptRecorder(deps());
    const ok = { ok: true, statusCode: 200, errorClass: null, errorMessage: null, latencyMs: 1, responseHeaders: {}, responseBody: "ok" } as const;
    // Recorded in the same tick: one batch, in which the missing delivery's attempt has nothing to belong to.
    const results = await Promise.allSettled(claimed.map((row) => recorder.record(row, ok, runtime.now())));
    const byId = new Map(claimed.map((row, i) => [row.delivery.id, results[i]!]));
    expect(byId.get(kept.deliveryId)).toEqual({ status: "fulfilled", value: "delivered" });
    expect(byId.get(gone.deliveryId)).toEqual({ status: "fulfilled", value: "lease_lost" });
    expect(await delivery(kept.deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1 });
  });

  it("still delivers a row committed late with an old due time, within a second", async () => {
    const worker = startWebhookWorker(deps(), { pollIntervalMs: 10 });
    try {
      await emit({ n: "sets the bound" });
      while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 10));
      // A transaction that began ten minutes ago commits now: its row is due far below the bound.
      const late = await runtime.database.db.transaction(async (tx) => {
        const { deliveryId } = await emitEvent({ ctx: { ...merchantContext(runtime, shop.merchant.id), db: tx }, input: { type: "payment.confirmed", data: { n: "late" } } });
        await tx.update(webhookDeliveries).set({ nextAttemptAt: new Date(runtime.now().getTime() - 10 * MINUTE) }).where(eq(webhookDeliveries.id, deliveryId!));
        return deliveryId!;
      });
      const deadline = Date.now() + 5_000;
      while ((await delivery(late)).status !== "delivered" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await delivery(late)).toMatchObject({ status: "delivered", attemptCount: 1 });
    } finally {
      await worker.stop();
    }
  });

  it("signs with a rotated secret from the next attempt on, in a worker that has been signing with the old one", async () => {
    const worker = startWebhookWorker(deps(), { pollIntervalMs: 10 });
    try {
      await emit({ n: "before" });
      while (receiver.received.length < 1) await new Promise((r) => setTimeout(r, 10));
      const before = receiver.received.at(-1)!;
      const ctx = merchantContext(runtime, shop.merchant.id);
      // Two rotations: the secret of the first becomes the previous one, the original stops at once.
      const { webhookSecret: middle } = await rotateWebhookSecret({ ctx });
      const { webhookSecret: newest } = await rotateWebhookSecret({ ctx });
      await emit({ n: "after" });
      while (receiver.received.length < 2) await new Promise((r) => setTimeout(r, 10));
      const after = receiver.received.at(-1)!;
      const valid = (request: ReceivedWebhook, secret: string) =>
        verifySignature({
          payload: request.body,
          headers: { id: request.headers["webhook-id"], timestamp: request.headers["webhook-timestamp"], signature: request.headers["webhook-signature"] },
          secrets: [secret],
          now: runtime.now(),
        }).valid;
      expect(valid(before, shop.webhookSecret)).toBe(true);
      expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(valid(after, newest)).toBe(true);
      expect(valid(after, middle)).toBe(true);
      expect(valid(after, shop.webhookSecret)).toBe(false);
      shop = { ...shop, webhookSecret: newest };
    } finally {
      await worker.stop();
    }
  });
});
