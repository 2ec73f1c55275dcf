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
};

export const EXAMPLE_API_KEY = "sk_live_0JKL0whSqJ0GtiFY2Lm2Ah9iAiKhhfJbotfSOK8yYaL2kDKdN";
export const EXAMPLE_WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

export const EXAMPLE_MERCHANT = {
  id: EXAMPLE_IDS.merchant,
  name: "Acme Coffee",
  email: "owner@acme.example",
  website: "https://acme.example",
  webhookUrl: "https://acme.example/webhooks/payments",
  webhookEvents: ["payment.pending", "payment.confirmed", "payment.failed", "keys.published", "webhook.test"],
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
