import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secret-box";

const master = "m".repeat(40);

describe("secret box", () => {
  it("round-trips and never contains the plaintext", () => {
    const sealed = sealSecret(master, "purpose", "whsec_abc123");
    expect(sealed).not.toContain("abc123");
    expect(openSecret(master, "purpose", sealed)).toBe("whsec_abc123");
  });

  it("refuses another master secret, another purpose, or a tampered box", () => {
    const sealed = sealSecret(master, "purpose", "whsec_abc123");
    expect(() => openSecret("x".repeat(40), "purpose", sealed)).toThrow();
    expect(() => openSecret(master, "other", sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => openSecret(master, "purpose", parts.join("."))).toThrow();
  });
});
