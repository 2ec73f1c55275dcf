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
