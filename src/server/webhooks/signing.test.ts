import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  generateWebhookSecret,
  secretKey,
  signatureHeaders,
  signPayload,
  verifySignature,
} from "./signing";

const body = JSON.stringify({ type: "payment.confirmed", timestamp: "2026-11-22T12:00:00.000Z", data: { id: "pay_1" } });
const id = "evt_01jd0000000000000000000000";
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("webhook secrets", () => {
  it("are whsec_ + base64 of 32 random bytes, all different", () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secretKey(secret)).toHaveLength(32);
    }
  });

  it("refuse to sign with a malformed secret", () => {
    expect(() => secretKey("sk_nope")).toThrow();
    expect(() => secretKey("whsec_")).toThrow();
    expect(() => secretKey("whsec_***")).toThrow();
  });
});

describe("signPayload", () => {
  it("is HMAC-SHA256 of id.timestamp.body with the decoded secret, base64, prefixed v1", () => {
    const secret = generateWebhookSecret();
    const timestamp = 1_763_812_800;
    const expected = createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
    expect(signPayload({ id, timestamp, body, secrets: [secret] })).toBe(`v1,${expected}`);
  });

  it("sends one signature per secret during a rotation, current first", () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const timestamp = nowSeconds();
    const header = signPayload({ id, timestamp, body, secrets: [current, previous] });
    const [first, second, ...rest] = header.split(" ");
    expect(rest).toEqual([]);
    expect(first).toBe(signPayload({ id, timestamp, body, secrets: [current] }));
    expect(second).toBe(signPayload({ id, timestamp, body, secrets: [previous] }));
  });

  it("needs at least one secret", () => {
    expect(() => signPayload({ id, timestamp: 1, body, secrets: [] })).toThrow();
  });
});

describe("interoperability with the official standardwebhooks library", () => {
  it("standardwebhooks verifies what we sign, with either secret of a rotation", () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: nowSeconds(), body, secrets: [current, previous] });
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    // A receiver that has not yet switched to the new secret still verifies.
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    // And a stranger's secret does not.
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/signature/i);
  });

  it("we verify what standardwebhooks signs", () => {
    const secret = generateWebhookSecret();
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    const result = verifySignature({
      payload: body,
      headers: { id, timestamp: String(Math.floor(now.getTime() / 1000)), signature },
      secrets: [secret],
      now,
    });
    expect(result).toEqual({ valid: true, reason: null, eventId: id, timestamp: new Date(Math.floor(now.getTime() / 1000) * 1000) });
  });

  it("standardwebhooks refuses a body we signed once it is changed", () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: nowSeconds(), body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body.replace("pay_1", "pay_2"), headers)).toThrow();
  });
});

describe("verifySignature", () => {
  const secret = generateWebhookSecret();
  const previous = generateWebhookSecret();
  const now = new Date("2026-11-22T12:00:00Z");
  const ts = Math.floor(now.getTime() / 1000);
  const signed = (overrides: { timestamp?: number; payload?: string; secrets?: string[] } = {}) => {
    const timestamp = overrides.timestamp ?? ts;
    return {
      id,
      timestamp: String(timestamp),
      signature: signPayload({ id, timestamp, body: overrides.payload ?? body, secrets: overrides.secrets ?? [secret] }),
    };
  };
  const verify = (headers: { id?: string | null; timestamp?: string | null; signature?: string | null }, payload = body) =>
    verifySignature({ payload, headers, secrets: [secret, previous], now });

  it("accepts a signature made with the current or the previous secret", () => {
    expect(verify(signed())).toMatchObject({ valid: true, reason: null, eventId: id });
    expect(verify(signed({ secrets: [previous] }))).toMatchObject({ valid: true });
  });

  it("accepts a header that lists other versions and several signatures", () => {
    const headers = signed();
    expect(verify({ ...headers, signature: `v1a,AAAA v1,${"A".repeat(43)}= ${headers.signature}` })).toMatchObject({ valid: true });
  });

  it("accepts a Buffer payload", () => {
    expect(verifySignature({ payload: Buffer.from(body), headers: signed(), secrets: [secret], now })).toMatchObject({ valid: true });
  });

  it.each([
    ["missing id", { id: undefined }],
    ["empty id", { id: "" }],
    ["id with whitespace", { id: "evt 1" }],
    ["missing timestamp", { timestamp: undefined }],
    ["timestamp not a number", { timestamp: "yesterday" }],
    ["timestamp in milliseconds-with-fraction", { timestamp: "1763812800.5" }],
    ["negative timestamp", { timestamp: "-5" }],
    ["missing signature", { signature: undefined }],
    ["empty signature", { signature: "   " }],
    ["signature without version", { signature: "c2lnbmF0dXJl" }],
    ["signature not base64", { signature: "v1,not*base64" }],
    ["only unknown versions", { signature: "v2,AAAA" }],
  ])("malformed headers: %s", (_name, change) => {
    const result = verify({ ...signed(), ...change });
    expect(result).toMatchObject({ valid: false, reason: "malformed_headers" });
  });

  it.each([
    ["6 minutes old", -360],
    ["6 minutes in the future", 360],
    ["a day old", -86_400],
  ])("timestamp outside the ±5 min window: %s", (_name, offset) => {
    const result = verify(signed({ timestamp: ts + offset }));
    expect(result).toEqual({ valid: false, reason: "timestamp_outside_tolerance", eventId: id, timestamp: new Date((ts + offset) * 1000) });
  });

  it.each([
    ["4 minutes old", -240],
    ["exactly 5 minutes old", -300],
    ["4 minutes in the future", 240],
  ])("timestamp inside the window: %s", (_name, offset) => {
    expect(verify(signed({ timestamp: ts + offset }))).toMatchObject({ valid: true });
  });

  it("refuses a changed body, a changed id, a moved timestamp and an unknown secret", () => {
    const headers = signed();
    expect(verify(headers, body + " ")).toMatchObject({ valid: false, reason: "signature_mismatch" });
    expect(verify({ ...headers, id: "evt_other" })).toMatchObject({ valid: false, reason: "signature_mismatch", eventId: "evt_other" });
    expect(verify({ ...headers, timestamp: String(ts + 1) })).toMatchObject({ valid: false, reason: "signature_mismatch" });
    expect(verify(signed({ secrets: [generateWebhookSecret()] }))).toMatchObject({ valid: false, reason: "signature_mismatch" });
  });

  it("refuses a truncated signature without throwing", () => {
    const headers = signed();
    expect(verify({ ...headers, signature: headers.signature.slice(0, 20) })).toMatchObject({ valid: false });
  });
});
