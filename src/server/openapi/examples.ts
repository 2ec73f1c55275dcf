import { EXAMPLE_SUBSCRIPTION, eventTypes } from "@/lib/event-types";
import type { PaymentMethod } from "@/server/services/payment-methods/schemas";
/**
 * Values the documented examples share, shaped like the real thing (lower-case ULID ids with their prefix,
 * an API key with a valid checksum), so a reader can tell at a glance what each field holds.
 */
export const EXAMPLE_TIME = "2026-11-22T12:00:00.000Z";
export const EXAMPLE_UNIX_TIME = "1763812800";

export const EXAMPLE_IDS = {
  merchant: "mer_01jd7z8x0m4e5t6y7v8w9a0b1c",
  payment: "pay_01jd7z9k2q3r4s5t6v7w8x9y0z",
  event: "evt_01jd7z9k2q3r4s5t6v7w8x9y1a",
  delivery: "whd_01jd7z9k2q3r4s5t6v7w8x9y2b",
  publishedKey: "pk_01jd7za3b4c5d6e7f8g9h0j1k2",
  apiKey: "key_01jd7z8x0m4e5t6y7v8w9a0b1d",
  request: "req_01jd7zb5c6d7e8f9g0h1j2k3m4",
  invoice: "inv_01jd7z9e4f5g6h7j8k9m0n1p2q",
  webhookEndpoint: "we_01jd7zc8d9e0f1g2h3j4k5m6n7",
  refund: "re_01jd7zd2e3f4g5h6j7k8m9n0p1",
};

export const EXAMPLE_API_KEY = "sk_live_0JKL0whSqJ0GtiFY2Lm2Ah9iAiKhhfJbotfSOK8yYaL2kDKdN";
/** A test-mode key (docs/test-mode.md), with a valid checksum. */
export const EXAMPLE_TEST_API_KEY = "sk_test_hSg0Svhb68PWdkBTv61WYiUXt5JNlzyDCHQ38BagSb03h6GMi";
export const EXAMPLE_WEBHOOK_SECRET = "whsec_MvRzcr4AflParREFFxgvtlo9XHHaYSilAHPYHSZUjz0=";

export const EXAMPLE_MERCHANT = {
  id: EXAMPLE_IDS.merchant,
  name: "Acme Coffee",
  email: "owner@acme.example",
  website: "https://acme.example",
  webhookUrl: "https://acme.example/webhooks/payments",
  // A new merchant's: every type of the catalogue.
  webhookEvents: [...eventTypes],
  paymentInstructions: null,
  status: "active",
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

/** A real Ed25519 public key, with its RFC 7638 thumbprint. */
export const EXAMPLE_JWK = { kty: "OKP", crv: "Ed25519", x: "IYDhJ0IJZYB406PjAj2b7NPteAKlyT4LBu6CuyvJ-40" } as const;

export const EXAMPLE_PUBLISHED_KEY = {
  id: EXAMPLE_IDS.publishedKey,
  kid: "order-signing-2026-11",
  use: "sig",
  label: "Order signing",
  jwk: EXAMPLE_JWK,
  thumbprint: "3pgUaiGMGKR5wmlBnLo7LU8R3gxXZdU9ySgHCMy5m5A",
  status: "active",
  createdAt: EXAMPLE_TIME,
  retiredAt: null,
  revokedAt: null,
};

export const EXAMPLE_PAYMENT = {
  id: EXAMPLE_IDS.payment,
  externalId: "pi_3QdXk2Lz8V1aB4cD",
  amount: "19.99",
  currency: "EUR",
  status: "confirmed",
  reference: "order-1042",
  invoiceId: EXAMPLE_IDS.invoice,
  method: "card",
  network: null,
  metadata: { orderId: "1042", channel: "web" },
  occurredAt: "2026-11-22T11:59:58.000Z",
  confirmedAt: EXAMPLE_TIME,
  failedAt: null,
  reconciledAt: null,
  amountRefunded: "0.00",
  refundStatus: "none",
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

export const EXAMPLE_PENDING_PAYMENT = { ...EXAMPLE_PAYMENT, status: "pending", confirmedAt: null };

export const EXAMPLE_INVOICE = {
  id: EXAMPLE_IDS.invoice,
  orderId: "order-1042",
  amount: "19.99",
  currency: "EUR",
  amountPaid: "19.99",
  amountPending: "0.00",
  amountRefunded: "0.00",
  amountRemaining: "0.00",
  status: "paid",
  statusDetail: null,
  description: "2 × Ethiopia Guji, 250 g",
  metadata: { channel: "web" },
  checkoutUrl: `https://pay.acme.example/pay/${EXAMPLE_IDS.invoice}`,
  returnUrl: "https://acme.example/orders/1042",
  expiresAt: "2026-11-22T13:00:00.000Z",
  paidAt: EXAMPLE_TIME,
  expiredAt: null,
  voidedAt: null,
  createdAt: "2026-11-22T11:58:00.000Z",
  updatedAt: EXAMPLE_TIME,
};

export const EXAMPLE_OPEN_INVOICE = {
  ...EXAMPLE_INVOICE,
  amountPaid: "0.00",
  amountRemaining: "19.99",
  status: "open",
  paidAt: null,
  updatedAt: EXAMPLE_INVOICE.createdAt,
};

/** A refund of half the example payment, recorded as made at the processor (docs/refunds.md). */
export const EXAMPLE_REFUND = {
  id: EXAMPLE_IDS.refund,
  paymentId: EXAMPLE_IDS.payment,
  invoiceId: EXAMPLE_IDS.invoice,
  amount: "10.00",
  currency: "EUR",
  status: "succeeded",
  reason: "requested_by_customer",
  note: "Returned one of two bags",
  externalId: "re_3QdXk2Lz8V1aB4cD",
  failureReason: null,
  claimExpiresAt: null,
  claimInstructions: null,
  destination: null,
  destinationNetwork: null,
  claimedAt: null,
  metadata: { rma: "RMA-77" },
  createdAt: "2026-11-23T09:30:00.000Z",
  updatedAt: "2026-11-23T09:30:00.000Z",
  succeededAt: "2026-11-23T09:30:00.000Z",
  failedAt: null,
  canceledAt: null,
  claimUrl: null,
};

/** A refund waiting for the payer to claim it. */
export const EXAMPLE_CLAIM_REFUND = {
  ...EXAMPLE_REFUND,
  status: "requires_action",
  externalId: null,
  succeededAt: null,
  claimExpiresAt: "2026-11-30T09:30:00.000Z",
  claimInstructions: "Give the bank account or BTC address you want the money sent to.",
  claimUrl: "https://pay.acme.example/refund/3Fz9Qm1xV7bKc2LpR8tYw4HnJ6sD0aGe5UiOoPqXyZk",
};

export const EXAMPLE_CURSOR = "eyJjIjoiMjAyNi0xMS0yMlQxMjowMDowMC4wMDAwMDBaIn0.9f3a";

/** A `payment.confirmed` webhook body, and its Standard Webhooks signature with EXAMPLE_WEBHOOK_SECRET (a test verifies it). */
export const EXAMPLE_EVENT_BODY = JSON.stringify({ type: "payment.confirmed", timestamp: EXAMPLE_TIME, data: EXAMPLE_PAYMENT });
export const EXAMPLE_SIGNATURE = "v1,mvdOXIf7CLgzwYVP1weq4upP/s9zKGJlWLsArkaQ9KU=";

export const EXAMPLE_ENDPOINT = {
  id: EXAMPLE_IDS.webhookEndpoint,
  url: "https://shop.example.com/hooks/payments",
  description: "Order fulfilment",
  eventTypes: [...EXAMPLE_SUBSCRIPTION],
  status: "enabled" as "enabled" | "disabled",
  disabledReason: null as "manual" | "failing" | "gone" | null,
  isDefault: false,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

/** A merchant's published payment methods (docs/invoices.md, "Payment methods"): one of each type. */
export const EXAMPLE_PAYMENT_METHODS: PaymentMethod[] = [
  { type: "bank_transfer", accountHolder: "Acme Coffee GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" },
  { type: "crypto", network: "ethereum", asset: "USDC", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" },
  { type: "link", label: "Pay with PayPal", url: "https://www.paypal.com/paypalme/acmecoffee" },
];
