import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "./index";

const secret = `whsec_${Buffer.from("a test secret of thirty-two bytes").toString("base64")}`;
const body = JSON.stringify({ type: "invoice.paid", timestamp: "2026-11-22T12:00:00.000Z", data: { id: "inv_1", status: "paid" } });

function signed(id = "evt_01", at = new Date()) {
  const signature = new Webhook(secret).sign(id, at, body);
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}

describe("verifyWebhook", () => {
  it("returns the typed event and its id from a signed body (plain headers or a Headers object)", () => {
    const event = verifyWebhook(body, signed("evt_42"), secret);
    expect(event).toMatchObject({ id: "evt_42", type: "invoice.paid", data: { id: "inv_1" } });
    // The type narrows `data`: an invoice event's data is an Invoice (a compile-time check as much as a test).
    if (event.type === "invoice.paid") expect(event.data.status).toBe("paid");
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(signed()), secret).type).toBe("invoice.paid");
  });

  it("refuses a changed body, a wrong secret, missing headers and an old timestamp", () => {
    const headers = signed();
    expect(() => verifyWebhook(body.replace("inv_1", "inv_2"), headers, secret)).toThrow(WebhookVerificationError);
    const otherSecret = `whsec_${Buffer.from("another secret, also long enough!").toString("base64")}`;
    expect(() => verifyWebhook(body, headers, otherSecret)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, {}, secret)).toThrow(WebhookVerificationError);
    const stale = signed("evt_01", new Date(Date.now() - 10 * 60_000));
    expect(() => verifyWebhook(body, stale, secret)).toThrow(WebhookVerificationError);
  });
});
