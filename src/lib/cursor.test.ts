import { describe, expect, it } from "vitest";
import { signCursor, verifyCursor } from "./cursor";

const secret = "a-secret-of-at-least-thirty-two-characters";
const position = { createdAt: "2026-11-22T12:00:00.123456Z", id: "pay_01jd0000000000000000000000" };

describe("signed cursors", () => {
  it("round-trip a position", () => {
    expect(verifyCursor(secret, "payments:mer_a", signCursor(secret, "payments:mer_a", position))).toEqual(position);
  });

  it("refuse another scope, another secret, and any tampering", () => {
    const cursor = signCursor(secret, "payments:mer_a", position);
    expect(verifyCursor(secret, "payments:mer_b", cursor)).toBeNull();
    expect(verifyCursor(secret + "x", "payments:mer_a", cursor)).toBeNull();
    const [payload, mac] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify({ t: "2030-01-01T00:00:00Z", i: position.id })).toString("base64url");
    expect(verifyCursor(secret, "payments:mer_a", `${forged}.${mac}`)).toBeNull();
    for (let i = 0; i < cursor.length; i++) {
      const flipped = cursor.slice(0, i) + (cursor[i] === "A" ? "B" : "A") + cursor.slice(i + 1);
      if (flipped !== cursor) expect(verifyCursor(secret, "payments:mer_a", flipped)).toBeNull();
    }
    expect(verifyCursor(secret, "payments:mer_a", payload!)).toBeNull();
    expect(verifyCursor(secret, "payments:mer_a", "")).toBeNull();
    expect(verifyCursor(secret, "payments:mer_a", "a.b.c")).toBeNull();
  });
});
