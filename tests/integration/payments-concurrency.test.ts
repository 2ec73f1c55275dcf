import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, payments, webhookDeliveries } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// On the PostgreSQL server these run with 20 connections, so the 50 requests really overlap in the
// database (row locks, the unique index); on PGlite they interleave on its one connection.
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  // Bursts of concurrent requests with one key are the point here, not the per-key rate limit.
  runtime = await createTestRuntime({ poolSize: 20, env: { RATE_LIMIT_PER_KEY: "10000" } });
  api = testClient(runtime);
  shop = await registerTestMerchant(api, { webhookUrl: "https://hooks.example/race" });
});
afterAll(() => runtime.close());

const confirm = (body: Record<string, unknown>) => api.post("/payment/confirm", { key: shop.apiKey, body });

async function eventTypesOf(paymentIds: string[]) {
  return runtime.database.db.select().from(events).where(inArray(events.subjectId, paymentIds));
}

describe("concurrent confirms", () => {
  it("50 identical first confirms: one payment, one event, one delivery, every caller a 2xx with that payment", async () => {
    const body = { externalId: externalId("race"), amount: "42.00", currency: "USD" };
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(body)));

    expect(answers.every((answer) => answer.status === 200 || answer.status === 201), JSON.stringify(answers.map((a) => a.body))).toBe(true);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);

    const rows = await runtime.database.db.select().from(payments).where(eq(payments.externalId, body.externalId));
    expect(rows).toHaveLength(1);
    const emitted = await eventTypesOf([rows[0]!.id]);
    expect(emitted.map((event) => event.type)).toEqual(["payment.confirmed"]);
    const deliveries = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, emitted[0]!.id));
    expect(deliveries).toHaveLength(1);
  });

  it("50 racing pending → confirmed / pending → failed on one payment: one transition wins, the other side gets 409", async () => {
    const id = externalId("race");
    const created = await confirm({ externalId: id, amount: "1.00000000", currency: "BTC", status: "pending" });
    expect(created.status).toBe(201);

    const wanted = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? "confirmed" : "failed"));
    const answers = await Promise.all(wanted.map((status) => confirm({ externalId: id, amount: "1", currency: "BTC", status })));

    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.externalId, id));
    const winner = row!.status;
    expect(["confirmed", "failed"]).toContain(winner);
    answers.forEach((answer, i) => {
      if (wanted[i] === winner) {
        // The winning transition, or the same status again afterwards: 200 with the payment.
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ id: created.body.id, status: winner });
      } else {
        expect(answer.status).toBe(409);
        expect(answer.body.code).toBe("invalid_transition");
      }
    });
    const emitted = await eventTypesOf([created.body.id]);
    expect(emitted.map((event) => event.type).sort()).toEqual(["payment.pending", `payment.${winner}`].sort());
  });

  it("25 payments, each raced by a confirm and a fail at once: per payment one 200 and one 409, no lost update", async () => {
    const ids = Array.from({ length: 25 }, () => externalId("pair"));
    await Promise.all(ids.map((id) => confirm({ externalId: id, amount: "3.50", currency: "EUR", status: "pending" })));

    const racers = ids.flatMap((id) => [
      confirm({ externalId: id, amount: "3.50", currency: "EUR", status: "confirmed" }).then((answer) => ({ id, status: "confirmed", answer })),
      confirm({ externalId: id, amount: "3.50", currency: "EUR", status: "failed" }).then((answer) => ({ id, status: "failed", answer })),
    ]);
    const results = await Promise.all(racers);

    const rows = await runtime.database.db.select().from(payments).where(inArray(payments.externalId, ids));
    expect(rows).toHaveLength(25);
    for (const row of rows) {
      const pair = results.filter((result) => result.id === row.externalId);
      expect(pair.map((result) => result.answer.status).sort()).toEqual([200, 409]);
      const winner = pair.find((result) => result.answer.status === 200)!;
      expect(winner.status).toBe(row.status);
      expect(row.confirmedAt === null).toBe(row.status !== "confirmed");
      expect(row.failedAt === null).toBe(row.status !== "failed");
    }
    const emitted = await eventTypesOf(rows.map((row) => row.id));
    expect(emitted).toHaveLength(50);
  });
});
