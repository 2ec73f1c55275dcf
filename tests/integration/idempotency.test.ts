import { and, eq, lte } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { events, idempotencyKeys, payments, webhookSecrets } from "../../src/server/db/schema";
import { generateKeyPair } from "../support/key-fixtures";
import { handleRoute } from "../../src/server/http/handle";
import { IDEMPOTENCY_TTL_MS } from "../../src/server/services/idempotency/records";
import { purgeExpiredIdempotencyKeys } from "../../src/server/services/idempotency/purge";
import { IDEMPOTENCY_LEASE_MS } from "../../src/server/services/idempotency/run";
import { defineRoute, type AnyRoute } from "../../src/server/http/route";
import type { ServiceContext } from "../../src/server/services/context";
import { ServiceError } from "../../src/server/services/errors";
import { emitEvent } from "../../src/server/services/events/emit";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  // Bursts of concurrent requests with one key are the point here, not the per-key rate limit.
  runtime = await createTestRuntime({ poolSize: 20, env: { RATE_LIMIT_PER_KEY: "10000" } });
  api = testClient(runtime);
  [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
});
afterAll(() => runtime.close());

const newKey = () => `key-${externalId()}`;
const confirm = (body: Record<string, unknown>, key: string, merchant = shop) =>
  api.post("/payment/confirm", { key: merchant.apiKey, body, headers: { "idempotency-key": key } });

async function storedKeys(key: string) {
  return runtime.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
}

/** A POST route for driving the mechanism directly: it counts its runs and can be held open. */
function probeRoute(
  path: string,
  behaviour: (body: { n: number }, ctx: ServiceContext) => Promise<unknown>,
  idempotency?: AnyRoute["idempotency"],
) {
  let runs = 0;
  const route = defineRoute({
    operationId: `probe${path.replace(/\W/g, "")}`,
    method: "POST",
    path,
    summary: "test only",
    tags: [],
    auth: "api_key",
    permission: "payments.write",
    body: z.object({ n: z.number() }),
    responses: { 201: { description: "ran" } },
    idempotency,
    handler: async ({ body, ctx }) => {
      runs++;
      return { status: 201, body: { ran: runs, result: await behaviour(body, ctx) } };
    },
  });
  async function call(key: string, n = 1, merchant = shop) {
    const request = new Request(`http://localhost/api/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${merchant.apiKey}`, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ n }),
    });
    const response = await handleRoute(runtime, route, request, {});
    return { status: response.status, headers: response.headers, body: await response.json() };
  }
  return { call, runs: () => runs };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("Idempotency-Key", () => {
  it("replays the stored answer for the same key and body, with Idempotent-Replayed, running the request once", async () => {
    const key = newKey();
    const body = { externalId: externalId(), amount: "12.50", currency: "USD", metadata: { a: 1, b: 2 } };
    const first = await confirm(body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    // Same body with keys in another order: the canonical digest matches.
    const again = await confirm({ metadata: { b: 2, a: 1 }, currency: "USD", amount: "12.50", externalId: body.externalId }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await runtime.database.db.select().from(events).where(eq(events.subjectId, first.body.id))).toHaveLength(1);
  });

  it("answers the same key with another body with 422 idempotency_key_reused", async () => {
    const key = newKey();
    const id = externalId();
    expect((await confirm({ externalId: id, amount: "1.00", currency: "USD" }, key)).status).toBe(201);
    const reused = await confirm({ externalId: id, amount: "2.00", currency: "USD" }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_key_reused");
    // A new payment under a used key: refused, and nothing of it written.
    const otherId = externalId();
    expect((await confirm({ externalId: otherId, amount: "2.00", currency: "USD" }, key)).status).toBe(422);
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, otherId))).toHaveLength(0);
  });

  it("scopes keys to the merchant and the path", async () => {
    const key = newKey();
    const body = { externalId: externalId(), amount: "1.00", currency: "USD" };
    expect((await confirm(body, key)).status).toBe(201);
    const otherMerchant = await confirm(body, key, other);
    expect(otherMerchant.status).toBe(201);
    expect(otherMerchant.headers.get("idempotent-replayed")).toBeNull();
    const probe = probeRoute("/probe/scope", async () => "ok");
    expect((await probe.call(key)).status).toBe(201);
    expect(probe.runs()).toBe(1);
  });

  it("answers 409 idempotency_key_in_use while the first request runs, then replays its answer", async () => {
    const held = gate();
    const probe = probeRoute("/probe/held", () => held.opened.then(() => "done"));
    const key = newKey();
    const first = probe.call(key);
    await expect.poll(() => storedKeys(key).then((rows) => rows[0]?.state)).toBe("in_progress");

    const concurrent = await probe.call(key);
    expect(concurrent.status).toBe(409);
    expect(concurrent.body.code).toBe("idempotency_key_in_use");
    expect(concurrent.headers.get("retry-after")).toBe("1");

    held.open();
    expect((await first).status).toBe(201);
    const after = await probe.call(key);
    expect(after).toMatchObject({ status: 201, body: { ran: 1, result: "done" } });
    expect(after.headers.get("idempotent-replayed")).toBe("true");
    expect(probe.runs()).toBe(1);
  });

  describe("atomic routes (the answer commits in the handler's transaction)", () => {
    /** An atomic probe whose every run writes one event (subject = the key), so committed runs can be counted. */
    const atomicProbe = (path: string, hold?: Promise<void>, fail?: () => boolean) =>
      probeRoute(
        path,
        async (_body, ctx) => {
          await emitEvent({ ctx, input: { type: "webhook.test", data: { probe: path }, subjectId: `${path}:${ctx.requestId}` } });
          if (hold) await hold;
          if (fail?.()) throw new Error("crashed after writing");
          return "done";
        },
        { store: "final", atomic: true },
      );
    const committedRuns = async (path: string) =>
      (await runtime.database.db.select().from(events).where(eq(events.type, "webhook.test"))).filter((row) =>
        row.subjectId?.startsWith(`${path}:`),
      ).length;

    it("lets a concurrent duplicate wait for the first and replay its answer: one run commits, nobody gets 409", async () => {
      const held = gate();
      const path = "/probe/atomic-held";
      const probe = atomicProbe(path, held.opened);
      const key = newKey();
      const first = probe.call(key);
      await expect.poll(() => probe.runs()).toBe(1);
      const second = probe.call(key);
      held.open();
      const answers = await Promise.all([first, second]);
      for (const answer of answers) expect(answer).toMatchObject({ status: 201, body: { result: "done" } });
      expect(answers[0].body).toEqual(answers[1].body);
      expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(1);
      expect(await committedRuns(path)).toBe(1);
      expect(await storedKeys(key)).toMatchObject([{ state: "completed", responseStatus: 201, lockedUntil: null }]);
    });

    it("rolls the key back with the work when the handler fails: nothing is left, and the retry runs", async () => {
      const path = "/probe/atomic-crash";
      let crash = true;
      const probe = atomicProbe(path, undefined, () => crash);
      const key = newKey();
      expect((await probe.call(key)).status).toBe(500);
      expect(await storedKeys(key)).toHaveLength(0);
      expect(await committedRuns(path)).toBe(0);

      crash = false;
      const retry = await probe.call(key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(await committedRuns(path)).toBe(1);
    });

    it("runs a retry of a finished key inside a transaction that rolls back: replayed, nothing written twice", async () => {
      const path = "/probe/atomic-retry";
      const probe = atomicProbe(path);
      const key = newKey();
      const first = await probe.call(key);
      const again = await probe.call(key);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      expect(await committedRuns(path)).toBe(1);
      expect((await probe.call(key, 2)).status).toBe(422);
      expect(await committedRuns(path)).toBe(1);
    });

    it("takes over an expired key in the same transaction", async () => {
      const path = "/probe/atomic-expired";
      const probe = atomicProbe(path);
      const key = newKey();
      await probe.call(key);
      runtime.advanceTime(IDEMPOTENCY_TTL_MS + 1_000);
      const later = await probe.call(key, 2);
      expect(later.status).toBe(201);
      expect(later.headers.get("idempotent-replayed")).toBeNull();
      expect(await committedRuns(path)).toBe(2);
    });
  });

  it("lets a crashed request's claim expire: the retry runs, and the stale request cannot overwrite its answer", async () => {
    const stuck = gate();
    let call = 0;
    const probe = probeRoute("/probe/crash", async () => (++call === 1 ? stuck.opened.then(() => "stale") : "fresh"));
    const key = newKey();
    const crashed = probe.call(key);
    await expect.poll(() => storedKeys(key).then((rows) => rows[0]?.state)).toBe("in_progress");

    runtime.advanceTime(IDEMPOTENCY_LEASE_MS + 1_000);
    const retry = await probe.call(key);
    expect(retry).toMatchObject({ status: 201, body: { ran: 2, result: "fresh" } });

    stuck.open();
    await crashed;
    const replay = await probe.call(key);
    expect(replay).toMatchObject({ status: 201, body: { ran: 2, result: "fresh" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("forgets a key after 24 hours", async () => {
    const key = newKey();
    const id = externalId();
    expect((await confirm({ externalId: id, amount: "1.00", currency: "USD" }, key)).status).toBe(201);
    runtime.advanceTime(IDEMPOTENCY_TTL_MS + 1_000);
    const later = await confirm({ externalId: externalId(), amount: "3.00", currency: "USD" }, key);
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
  });

  it("stores a final 4xx (payment_conflict) and replays it; keeps only a digest of the body", async () => {
    const id = externalId();
    await confirm({ externalId: id, amount: "1.00", currency: "USD" }, newKey());
    const key = newKey();
    const marker = `marker-${externalId()}`;
    const body = { externalId: id, amount: "9.99", currency: "USD", metadata: { marker } };
    const conflict = await confirm(body, key);
    expect(conflict.status).toBe(409);
    const replay = await confirm(body, key);
    expect(replay.status).toBe(409);
    expect(replay.text).toBe(conflict.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    const [row] = await storedKeys(key);
    expect(row!.requestDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(marker);
  });

  it("does not claim a key for an invalid request, so the fixed request may reuse it", async () => {
    const key = newKey();
    const invalid = await confirm({ externalId: externalId(), amount: "1.001", currency: "USD" }, key);
    expect(invalid.status).toBe(400);
    expect(await storedKeys(key)).toHaveLength(0);
    expect((await confirm({ externalId: externalId(), amount: "1.00", currency: "USD" }, key)).status).toBe(201);
  });

  it("never stores errors outside the final list (they may echo input, or a retry may succeed)", async () => {
    let fail = true;
    const probe = probeRoute("/probe/refuse", async () => {
      if (fail) throw new ServiceError("private_key_material", "refused");
      return "accepted";
    });
    const key = newKey();
    expect((await probe.call(key)).status).toBe(422);
    expect(await storedKeys(key)).toHaveLength(0);
    fail = false;
    expect(await probe.call(key)).toMatchObject({ status: 201, body: { result: "accepted" } });
  });

  it("never stores a refused private key: POST merchant/keys/publish → 422, and no key row at all", async () => {
    const key = newKey();
    const privateJwk = generateKeyPair("Ed25519").privateKey.export({ format: "jwk" }) as Record<string, unknown>;
    const response = await api.post("/merchant/keys/publish", {
      key: shop.apiKey,
      body: { keys: [{ jwk: privateJwk, use: "sig" }] },
      headers: { "idempotency-key": key },
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("private_key_material");
    expect(await storedKeys(key)).toHaveLength(0);
    const everything = JSON.stringify(await runtime.database.db.select().from(idempotencyKeys));
    expect(everything).not.toContain(String(privateJwk.d));
  });

  it("lets a route opt out of storing errors, or of the mechanism", async () => {
    const successOnly = probeRoute("/probe/success-only", async () => {
      throw new ServiceError("payment_conflict", "conflict");
    }, { store: "success" });
    const key = newKey();
    expect((await successOnly.call(key)).status).toBe(409);
    expect(await storedKeys(key)).toHaveLength(0);

    const off = probeRoute("/probe/off", async () => "ran", false);
    const offKey = newKey();
    await off.call(offKey);
    await off.call(offKey, 2);
    expect(off.runs()).toBe(2);
    expect(await storedKeys(offKey)).toHaveLength(0);
  });

  it("makes a key, an endpoint or a rotation once per Idempotency-Key, and replays it without its secret", async () => {
    const post = (path: string, key: string, body: unknown = {}) => api.post(path, { key: shop.apiKey, body, headers: { "idempotency-key": key } });

    const keyKey = newKey();
    const made = await post("/merchant/api-key", keyKey, { mode: "test", name: "CI" });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^sk_test_/);
    const again = await post("/merchant/api-key", keyKey, { mode: "test", name: "CI" });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...made.body, secret: null });

    const endpointKey = newKey();
    const endpoint = await post("/webhook/endpoint", endpointKey, { url: "http://127.0.0.1:9/hooks" });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    const endpointAgain = await post("/webhook/endpoint", endpointKey, { url: "http://127.0.0.1:9/hooks" });
    expect(endpointAgain.body).toEqual({ ...endpoint.body, secret: null });
    const endpoints = (await api.get("/webhook/endpoint", { key: shop.apiKey })).body.data as { url: string }[];
    expect(endpoints.filter((one) => one.url === "http://127.0.0.1:9/hooks")).toHaveLength(1);

    const rotateKey = newKey();
    const rotatePath = `/webhook/endpoint/${endpoint.body.endpoint.id}/rotate-secret`;
    const rotated = await post(rotatePath, rotateKey);
    expect(rotated.status).toBe(200);
    const rotatedAgain = await post(rotatePath, rotateKey);
    expect(rotatedAgain.body).toEqual({ ...rotated.body, secret: null });
    // Rotated once: the endpoint holds its first secret (signing until tomorrow) and the new one, no third.
    const secrets = await runtime.database.db.select().from(webhookSecrets).where(eq(webhookSecrets.endpointId, endpoint.body.endpoint.id));
    expect(secrets).toHaveLength(2);

    // No secret was stored to replay it.
    const stored = JSON.stringify(await runtime.database.db.select().from(idempotencyKeys));
    for (const secret of [made.body.secret, endpoint.body.secret, rotated.body.secret]) expect(stored).not.toContain(secret);
  });

  it("refuses a key longer than 255 characters, or with control characters, with a 400", async () => {
    for (const key of ["k".repeat(256), "tab\there"]) {
      const response = await confirm({ externalId: externalId(), amount: "1.00", currency: "USD" }, key);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe("headers.idempotency-key");
    }
    expect((await confirm({ externalId: externalId(), amount: "1.00", currency: "USD" }, "k".repeat(255))).status).toBe(201);
  });

  it("ignores the header on GETs and on unauthenticated POSTs", async () => {
    const key = newKey();
    const list = await api.get("/payment", { key: shop.apiKey, headers: { "idempotency-key": key } });
    expect(list.status).toBe(200);
    await registerTestMerchant({ ...api, post: (path, options) => api.post(path, { ...options, headers: { ...options?.headers, "idempotency-key": key } }) });
    expect(await storedKeys(key)).toHaveLength(0);
  });

  it("runs 30 concurrent confirms with one key once: the rest wait and get the replay", async () => {
    const key = newKey();
    const body = { externalId: externalId(), amount: "7.00", currency: "USD" };
    const answers = await Promise.all(Array.from({ length: 30 }, () => confirm(body, key)));
    // Confirm is atomic: duplicates wait on the first's row lock instead of getting 409.
    for (const answer of answers) expect(answer.status).toBe(201);
    expect(answers.filter((answer) => answer.status === 201 && !answer.headers.get("idempotent-replayed"))).toHaveLength(1);
    const rows = await runtime.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.externalId, body.externalId), eq(payments.merchantId, shop.merchant.id)));
    expect(rows).toHaveLength(1);
  });

  it("purges expired keys in batches and keeps live ones", async () => {
    const now = runtime.now();
    const row = (key: string, expiresAt: Date) => ({
      merchantId: shop.merchant.id, method: "POST", path: "/api/v1/purge", key, requestDigest: "0".repeat(64),
      state: "completed" as const, responseStatus: 201, createdAt: now, expiresAt,
    });
    const expired = Array.from({ length: 5 }, () => row(newKey(), new Date(now.getTime() - 1_000)));
    const live = row(newKey(), new Date(now.getTime() + 60_000));
    await runtime.database.db.insert(idempotencyKeys).values([...expired, live]);
    // Earlier tests moved the clock past their keys' 24 h too: count every expired row, not only these.
    const expiredCount = async () => (await runtime.database.db.select().from(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now))).length;
    const before = await expiredCount();
    expect(await purgeExpiredIdempotencyKeys(runtime.database.db, now, 3)).toBe(3);
    expect(await expiredCount()).toBe(before - 3);
    const left = async () =>
      (await runtime.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.path, "/api/v1/purge"))).map((r) => r.key);
    await purgeExpiredIdempotencyKeys(runtime.database.db, now, 1_000);
    expect(await expiredCount()).toBe(0);
    expect(await left()).toEqual([live.key]);
  });
});
