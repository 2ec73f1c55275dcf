import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../src/server/db/schema";
import { startTracing } from "../../src/server/tracing/start";
import { useTracer, withSpan } from "../../src/server/tracing/span";
import { deliveryDepsFor } from "../../src/server/background/start";
import { deliverDueNow } from "../support/deliver-due-now";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { startReceiver, type TestReceiver } from "./webhooks/receiver";

const exporter = new InMemorySpanExporter();
let stopTracing: () => Promise<void>;
let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;

beforeAll(async () => {
  stopTracing = startTracing({ serviceName: "tracing-test", processor: new SimpleSpanProcessor({ exporter }) });
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
  await stopTracing();
});
beforeEach(() => exporter.reset());

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

/** Whether `span` sits under `ancestor` in the finished spans. */
function isUnder(span: ReadableSpan, ancestor: ReadableSpan, spans: readonly ReadableSpan[]): boolean {
  for (let parent = parentOf(span); parent; ) {
    if (parent === idOf(ancestor)) return true;
    parent = spans.find((candidate) => idOf(candidate) === parent)?.parentSpanContext?.spanId;
  }
  return false;
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name), `one span named ${name}`).toEqual([name]);
  return found[0]!;
}

describe("traces", () => {
  it("one confirm: the request's span covers authentication, the service verb, its SQL and the outbox row; its delivery is a linked span", async () => {
    const confirmed = await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId(), amount: "9.50", currency: "EUR" } });
    expect(confirmed.status).toBe(201);
    const spans = exporter.getFinishedSpans();

    const request = only(spans, "POST /payment/confirm");
    expect(request.attributes).toMatchObject({ "http.route": "/payment/confirm", "http.request.method": "POST", "http.response.status_code": 201 });
    const sameTrace = spans.filter((span) => span.spanContext().traceId === request.spanContext().traceId);
    expect(sameTrace).toHaveLength(spans.length);

    const authentication = only(spans, "authenticate");
    expect(parentOf(authentication)).toBe(idOf(request));
    const verb = only(spans, "confirmPayment");
    expect(isUnder(verb, request, spans)).toBe(true);

    const outbox = only(spans, "outbox.write");
    expect(isUnder(outbox, verb, spans)).toBe(true);
    const [delivery] = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, shop.merchant.id));
    expect(outbox.attributes).toMatchObject({ "event.type": "payment.confirmed", "webhook.delivery_id": delivery!.id });
    expect(outbox.attributes["event.id"]).toBe(delivery!.eventId);

    const statements = spans.filter((span) => span.name === "db.query");
    const outboxInsert = statements.filter((span) => isUnder(span, outbox, spans));
    expect(outboxInsert.map((span) => span.attributes["db.query.text"])).toEqual([expect.stringContaining('insert into "webhook_deliveries"')]);
    const verbStatements = statements.filter((span) => isUnder(span, verb, spans));
    expect(verbStatements.map((span) => String(span.attributes["db.query.text"]))).toEqual(expect.arrayContaining([expect.stringContaining('insert into "payments"')]));
    // Statements carry their text, never their parameters (key hashes, amounts, secrets).
    expect(JSON.stringify(statements.map((span) => span.attributes))).not.toContain(shop.apiKey);
    expect(JSON.stringify(statements.map((span) => span.attributes))).not.toContain("9.50");

    exporter.reset();
    expect(await deliverDueNow(deliveryDepsFor(runtime))).toBe(1);
    const attemptSpans = exporter.getFinishedSpans();
    const attempt = only(attemptSpans, "webhook.attempt");
    expect(attempt.parentSpanContext).toBeUndefined();
    expect(attempt.spanContext().traceId).not.toBe(request.spanContext().traceId);
    expect(attempt.attributes).toMatchObject({
      "event.id": delivery!.eventId,
      "event.type": "payment.confirmed",
      "webhook.delivery_id": delivery!.id,
      "webhook.attempt": 1,
      "webhook.result": "delivered",
      "http.response.status_code": 200,
    });
    expect(attempt.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([[request.spanContext().traceId, idOf(outbox)]]);
    // The attempt's recording statements are its children.
    expect(attemptSpans.filter((span) => span.name === "db.query" && isUnder(span, attempt, attemptSpans)).length).toBeGreaterThan(0);
  });

  it("without a tracer nothing is made: no span is active, and the outbox row carries no trace", async () => {
    useTracer(null);
    try {
      await withSpan("anything", {}, async (span) => {
        expect(span).toBeNull();
        expect(trace.getActiveSpan()).toBeUndefined();
      });
      const confirmed = await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId(), amount: "1.00", currency: "EUR" } });
      expect(confirmed.status).toBe(201);
      const rows = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending"));
      expect(rows.map((row) => row.traceParent)).toEqual([null]);
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      useTracer(trace.getTracer("merchant-payment-service"));
    }
  });
});
