import { EXAMPLE_SUBSCRIPTION } from "@/lib/event-types";
import type { RetryFailedDeliveriesInput } from "./schemas";

/**
 * Documentation examples for the webhook routes (OpenAPI `bodyExample` / response `example`), kept beside
 * the schemas; examples.test.ts parses each with the schema it illustrates, so they cannot drift.
 */
const delivery = {
  id: "whd_01jd4q9x7m3k8r2c5v6b0n1t4e",
  eventId: "evt_01jd4q9x7m3k8r2c5v6b0n1t4e",
  eventType: "payment.confirmed",
  endpointId: "we_01jd4q9x7m3k8r2c5v6b0n1t4e",
  status: "failed",
  url: "https://shop.example/webhooks",
  attemptCount: 10,
  lastStatusCode: 503,
  lastError: "The endpoint answered HTTP 503.",
  nextAttemptAt: null,
  createdAt: "2026-11-19T09:00:00.000Z",
  updatedAt: "2026-11-22T09:14:02.311Z",
  event: {
    id: "evt_01jd4q9x7m3k8r2c5v6b0n1t4e",
    type: "payment.confirmed",
    createdAt: "2026-11-19T09:00:00.000Z",
    data: { id: "pay_01jd4q9x7m3k8r2c5v6b0n1t4e", amount: "19.99", currency: "EUR", status: "confirmed" },
  },
} as const;

export const webhookExamples = {
  failedList: { data: [delivery], hasMore: false, nextCursor: null },
  delivery: {
    ...delivery,
    attempts: [
      {
        at: "2026-11-22T09:14:02.120Z",
        queuedAt: "2026-11-22T09:14:00.000Z",
        trigger: "scheduled",
        statusCode: 503,
        errorClass: "http",
        error: "The endpoint answered HTTP 503.",
        latencyMs: 187,
        responseHeaders: { "content-type": "text/plain", "retry-after": "120" },
        responseBody: "Service Unavailable",
      },
    ],
    payload: { type: "payment.confirmed", timestamp: "2026-11-19T09:00:00.000Z", data: delivery.event.data },
  },
  retried: { ...delivery, status: "pending", nextAttemptAt: "2026-11-22T10:00:00.000Z", updatedAt: "2026-11-22T10:00:00.000Z" },
  bulkRetryBody: { since: "2026-11-21T00:00:00Z", eventTypes: [...EXAMPLE_SUBSCRIPTION], dryRun: true } satisfies RetryFailedDeliveriesInput,
  bulkRetryResult: { count: 42 },
  testBody: { url: "https://shop.example/webhooks", dryRun: false },
  testResult: {
    url: "https://shop.example/webhooks",
    usable: true,
    reason: null,
    message: null,
    delivered: true,
    statusCode: 200,
    latencyMs: 143,
    errorClass: null,
    responseSnippet: "ok",
    deliveryId: "whd_01jd4qa0b1c2d3e4f5g6h7j8k9",
  },
  verifyBody: {
    payload: '{"type":"payment.confirmed","timestamp":"2026-11-22T12:00:00.000Z","data":{"id":"pay_01jd4q9x7m3k8r2c5v6b0n1t4e"}}',
    headers: {
      "webhook-id": "evt_01jd4q9x7m3k8r2c5v6b0n1t4e",
      "webhook-timestamp": "1795348800",
      "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    },
  },
  signingKeys: {
    keys: [
      {
        kty: "OKP" as const,
        crv: "Ed25519" as const,
        x: "Y3hgcpMgY4GRQ-ifPz8brYuHVcVdT40Xb_CAnPXjMkw",
        kid: "LreFAj0_se9dFonUoVm644_Gy63nyErVfk0eDYnDWNE",
        use: "sig" as const,
        alg: "EdDSA" as const,
        whpk: "whpk_Y3hgcpMgY4GRQ+ifPz8brYuHVcVdT40Xb/CAnPXjMkw=",
      },
    ],
  },
  verifyResult: { valid: false, reason: "signature_mismatch", eventId: "evt_01jd4q9x7m3k8r2c5v6b0n1t4e", timestamp: "2026-11-22T12:00:00.000Z" },
};
