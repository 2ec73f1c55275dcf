import { createHash, createPublicKey, generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateKeyPair, privateMaterialCases, publicJwk, publicPem, unsupportedCases, type RefusalCase } from "../../../tests/support/key-fixtures";
import { assertUseAllowed, MAX_KEY_BYTES, parseSubmittedKey } from "./parse";
import { KEY_REFUSALS, KeyRefusal } from "./refusal";
import { jwkThumbprint } from "./thumbprint";
import { SUPPORTED_KEY_TYPES, type KeyUse } from "./types";

function refusalOf(run: () => unknown): KeyRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof KeyRefusal) return error;
    throw error;
  }
  throw new Error("expected a KeyRefusal, the key was accepted");
}

const CANONICAL_MEMBERS = { OKP: ["crv", "kty", "x"], EC: ["crv", "kty", "x", "y"], RSA: ["e", "kty", "n"] };

describe("accepted public keys", () => {
  describe.each(SUPPORTED_KEY_TYPES)("%s", (keyType) => {
    const pair = generateKeyPair(keyType);
    const expectedJwk = publicJwk(pair.publicKey);

    it.each([
      ["JWK", { jwk: expectedJwk }],
      ["PEM", { pem: publicPem(pair.publicKey) }],
      ["PEM with CRLF and surrounding whitespace", { pem: `\r\n  ${publicPem(pair.publicKey).replace(/\n/g, "\r\n")}\n\n` }],
      ["JWK with extra members", { jwk: { ...expectedJwk, kid: "mine", use: "sig", alg: "none", x5c: ["AAAA"] } }],
    ])("reads it from a %s and keeps only the canonical public members", (_, submission) => {
      const parsed = parseSubmittedKey(submission);
      expect(parsed.keyType).toBe(keyType);
      expect(parsed.jwk).toEqual(Object.fromEntries(Object.entries(expectedJwk)));
      expect(Object.keys(parsed.jwk).sort()).toEqual(CANONICAL_MEMBERS[parsed.jwk.kty]);
      // The stored JWK is a working public key, equal to the one generated.
      const roundTrip = createPublicKey({ key: parsed.jwk, format: "jwk" });
      expect(roundTrip.equals(pair.publicKey)).toBe(true);
      expect(parsed.thumbprint).toBe(jwkThumbprint(parsed.jwk));
      expect(parsed.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it("gives a PEM and a JWK of the same key the same thumbprint", () => {
      const fromPem = parseSubmittedKey({ pem: publicPem(pair.publicKey) });
      const fromJwk = parseSubmittedKey({ jwk: expectedJwk });
      expect(fromPem.thumbprint).toBe(fromJwk.thumbprint);
    });
  });

  it.each([
    [2047, false],
    [3072, true],
  ])("RSA at %i bits: accepted %s (the floor is 2048, tested above)", (modulusLength, accepted) => {
    const { publicKey } = generateKeyPairSync("rsa", { modulusLength });
    if (accepted) expect(parseSubmittedKey({ pem: publicPem(publicKey) }).keyType).toBe("RSA");
    else expect(refusalOf(() => parseSubmittedKey({ jwk: publicJwk(publicKey) })).reason).toBe("weak_rsa");
  });
});

describe("RFC 7638 thumbprints", () => {
  it("matches the RFC 7638 §3.1 RSA example", () => {
    const n =
      "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
    expect(jwkThumbprint({ kty: "RSA", n, e: "AQAB" })).toBe("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
  });

  it("matches the RFC 8037 §A.3 Ed25519 example", () => {
    const x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
    expect(jwkThumbprint({ kty: "OKP", crv: "Ed25519", x })).toBe("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
  });

  it("hashes the required EC members in lexicographic order", () => {
    const jwk = { kty: "EC", crv: "P-256", x: "xx", y: "yy" } as const;
    const expected = createHash("sha256").update('{"crv":"P-256","kty":"EC","x":"xx","y":"yy"}').digest("base64url");
    expect(jwkThumbprint(jwk)).toBe(expected);
  });
});

describe("use", () => {
  it.each<[string, KeyUse, boolean]>([
    ["Ed25519", "sig", true],
    ["Ed25519", "enc", false],
    ["X25519", "enc", true],
    ["X25519", "sig", false],
    ["P-256", "sig", true],
    ["P-384", "enc", true],
    ["secp256k1", "sig", true],
    ["RSA", "enc", true],
  ])("%s for %s: allowed %s", (keyType, use, allowed) => {
    const parsed = parseSubmittedKey({ jwk: publicJwk(generateKeyPair(keyType as never).publicKey) });
    if (allowed) expect(() => assertUseAllowed(parsed, use)).not.toThrow();
    else expect(refusalOf(() => assertUseAllowed(parsed, use)).reason).toBe("use_mismatch");
  });
});

/** No piece of the submission may survive in the refusal: not its message, stack, properties or JSON. */
function expectNothingEchoed(refusal: KeyRefusal, refusalCase: RefusalCase) {
  const surfaces = [refusal.message, String(refusal.stack), JSON.stringify(refusal), String(refusal.cause)];
  expect(refusal.cause).toBeUndefined();
  for (const fragment of refusalCase.fragments) {
    for (const surface of surfaces) expect(surface).not.toContain(fragment);
  }
  expect(refusal.message).toBe(KEY_REFUSALS[refusal.reason].detail);
}

describe("private and symmetric material is refused as private_key_material", () => {
  const cases = privateMaterialCases();
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, refusalCase) => {
    const refusal = refusalOf(() => parseSubmittedKey(refusalCase.submission));
    expect({ reason: refusal.reason, code: refusal.code }).toEqual({
      reason: refusalCase.reason,
      code: "private_key_material",
    });
    expect(refusalCase.fragments.length).toBeGreaterThan(0);
    expectNothingEchoed(refusal, refusalCase);
  });
});

describe("public material we do not publish is refused as unsupported_key or key_too_large", () => {
  const cases = unsupportedCases();
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, refusalCase) => {
    const refusal = refusalOf(() => parseSubmittedKey(refusalCase.submission));
    expect(refusal.reason).toBe(refusalCase.reason);
    expect(refusal.code).toBe(refusalCase.reason === "too_large" ? "key_too_large" : "unsupported_key");
    expectNothingEchoed(refusal, refusalCase);
  });

  it("measures the size limit in bytes, before parsing", () => {
    const pem = publicPem(generateKeyPair("Ed25519").publicKey);
    const padded = (bytes: number) => pem + " ".repeat(bytes - Buffer.byteLength(pem));
    expect(parseSubmittedKey({ pem: padded(MAX_KEY_BYTES) }).keyType).toBe("Ed25519");
    expect(refusalOf(() => parseSubmittedKey({ pem: padded(MAX_KEY_BYTES + 1) })).reason).toBe("too_large");
  });
});

describe("hostile input", () => {
  // Generous bounds on a shared machine; the quadratic versions of these took 30 s and more.
  it.each([
    ["a long run of dashes", "-".repeat(64 * 1024)],
    ["many unterminated BEGIN lines", "-----BEGIN A-----\n".repeat(900)],
    ["many BEGIN PUBLIC KEY lines", "-----BEGIN PUBLIC KEY-----\n".repeat(600)],
    ["one huge token", "A".repeat(64 * 1024)],
  ])("answers %s quickly", (_, pem) => {
    const started = performance.now();
    for (const submission of [{ pem }, { jwk: { kty: "OKP", crv: "Ed25519", x: pem } }]) {
      expect(() => parseSubmittedKey(submission)).toThrow(KeyRefusal);
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("arbitrary input", () => {
  // Whatever arrives, the answer is a parsed key or a KeyRefusal: never another exception (a 500).
  const outcome = (submission: Parameters<typeof parseSubmittedKey>[0]) => {
    try {
      parseSubmittedKey(submission);
    } catch (error) {
      if (!(error instanceof KeyRefusal)) throw error;
    }
  };

  it("never throws anything but a KeyRefusal for any JSON as jwk", () => {
    fc.assert(fc.property(fc.jsonValue(), (jwk) => outcome({ jwk })), { numRuns: 300 });
  });

  it("never throws anything but a KeyRefusal for JWK-shaped objects", () => {
    const member = fc.oneof(fc.string(), fc.base64String(), fc.integer(), fc.constant(null));
    const kty = fc.constantFrom("OKP", "EC", "RSA", "oct", "x");
    const crv = fc.constantFrom("Ed25519", "X25519", "P-256", "P-384", "secp256k1", "P-521", "?");
    const jwk = fc.record({ kty, crv, x: member, y: member, n: member, e: member }, { requiredKeys: ["kty"] });
    fc.assert(fc.property(jwk, (value) => outcome({ jwk: value })), { numRuns: 300 });
  });

  it("never throws anything but a KeyRefusal for any text as pem", () => {
    const armored = fc
      .tuple(fc.string(), fc.base64String(), fc.string())
      .map(([before, body, after]) => `${before}-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----${after}`);
    const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), armored);
    fc.assert(fc.property(text, (pem) => outcome({ pem })), { numRuns: 300 });
  });
});
