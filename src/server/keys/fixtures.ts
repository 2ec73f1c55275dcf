/**
 * Test-only: real keys generated with node:crypto and every kind of submission we must refuse, shared by the
 * unit tests here and the HTTP integration tests (which submit each one, then search the database and the
 * logs for `fragments`). Nothing in the application imports this file.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { KeySubmission } from "./parse";
import type { KeyRefusalReason } from "./refusal";
import type { SupportedKeyType } from "./types";

/** A self-signed P-256 test certificate (public data only; its private key was discarded). */
export const TEST_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBpDCCAUmgAwIBAgIUPlr+m1A9sVhdQ4LX63//JhST3FswCgYIKoZIzj0EAwIw
JjEkMCIGA1UEAwwbcHVibGlzaGVkLWtleXMgdGVzdCBmaXh0dXJlMCAXDTI2MTEy
MjEyNTQxOVoYDzIxMjYxMDI5MTI1NDE5WjAmMSQwIgYDVQQDDBtwdWJsaXNoZWQt
a2V5cyB0ZXN0IGZpeHR1cmUwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAT4lGMx
qDM8W4bdcE6zBquSaqCOy1ytWseXp71ovgQjKZyCyztuHSNZVKJt+55dlU6qLLED
Oy5d7l9nFFtQo11qo1MwUTAdBgNVHQ4EFgQUdm2G01Kh2+LsVs6lvbCdAjrHaWEw
HwYDVR0jBBgwFoAUdm2G01Kh2+LsVs6lvbCdAjrHaWEwDwYDVR0TAQH/BAUwAwEB
/zAKBggqhkjOPQQDAgNJADBGAiEA3GbYAAe5i+FMXJ41dObHBC000TxTHU12jY44
iVWV8+cCIQCUayEv56ihzQn0LWQ3g8IPPzrSbDIRHcGU/5rLzGdCTw==
-----END CERTIFICATE-----
`;

export interface KeyPair {
  keyType: SupportedKeyType;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

export function generateKeyPair(keyType: SupportedKeyType): KeyPair {
  switch (keyType) {
    case "Ed25519":
      return { keyType, ...generateKeyPairSync("ed25519") };
    case "X25519":
      return { keyType, ...generateKeyPairSync("x25519") };
    case "P-256":
    case "P-384":
    case "secp256k1":
      return { keyType, ...generateKeyPairSync("ec", { namedCurve: keyType }) };
    case "RSA":
      return { keyType, ...generateKeyPairSync("rsa", { modulusLength: 2048 }) };
  }
}

export const publicPem = (key: KeyObject) => key.export({ format: "pem", type: "spki" }).toString();
export const publicJwk = (key: KeyObject) => key.export({ format: "jwk" }) as Record<string, unknown>;

export interface RefusalCase {
  name: string;
  submission: KeySubmission;
  reason: KeyRefusalReason;
  /** Distinctive pieces of the submitted text that must never show up in a response, a row or a log line. */
  fragments: string[];
}

/**
 * Slices of a text's base64 body, each from within one line (so they also match the text stored verbatim),
 * long enough to be unique and clear of armor lines and padding.
 */
export function bodyFragments(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length >= 28 && !line.includes("-----"));
  const pick = [lines[0], lines[Math.floor(lines.length / 2)], lines[lines.length - 2]];
  return [...new Set(pick.filter((line): line is string => line !== undefined).map((line) => line.slice(2, 26)))];
}

const b64Body = (der: Buffer) => der.toString("base64").replace(/(.{64})/g, "$1\n");
const armor = (label: string, der: Buffer) => `-----BEGIN ${label}-----\n${b64Body(der)}\n-----END ${label}-----\n`;

/** Every kind of submission that is or carries private or symmetric material (→ `private_key_material`). */
export function privateMaterialCases(): RefusalCase[] {
  const ed = generateKeyPair("Ed25519");
  const ec = generateKeyPair("P-256");
  const rsa = generateKeyPair("RSA");
  const cases: RefusalCase[] = [];
  const pemCase = (name: string, pem: string, reason: KeyRefusalReason, secret = pem) =>
    cases.push({ name, submission: { pem }, reason, fragments: bodyFragments(secret) });
  const jwkCase = (name: string, jwk: unknown, reason: KeyRefusalReason, secret: string) =>
    cases.push({ name, submission: { jwk }, reason, fragments: [secret.slice(4, 28)] });

  for (const keyType of ["Ed25519", "X25519", "P-256", "P-384", "secp256k1", "RSA"] as const) {
    const pair = keyType === "Ed25519" ? ed : keyType === "P-256" ? ec : keyType === "RSA" ? rsa : generateKeyPair(keyType);
    const pkcs8 = pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    pemCase(`${keyType} PKCS#8 PRIVATE KEY`, pkcs8, "private_pem_block");
    const jwk = pair.privateKey.export({ format: "jwk" });
    jwkCase(`${keyType} private JWK`, jwk, "private_jwk_member", String(jwk.d));
  }

  const rsaPkcs1 = rsa.privateKey.export({ format: "pem", type: "pkcs1" }).toString();
  const ecSec1 = ec.privateKey.export({ format: "pem", type: "sec1" }).toString();
  const encrypted = ec.privateKey
    .export({ format: "pem", type: "pkcs8", cipher: "aes-256-cbc", passphrase: "test" })
    .toString();
  // node:crypto cannot write OpenSSH's format; the armor is what matters and the body is opaque to us anyway.
  const openSshBody = Buffer.concat([Buffer.from("openssh-key-v1\0"), randomBytes(200)]);
  const openSsh = armor("OPENSSH PRIVATE KEY", openSshBody);
  pemCase("RSA PRIVATE KEY (PKCS#1)", rsaPkcs1, "private_pem_block");
  pemCase("EC PRIVATE KEY (SEC1)", ecSec1, "private_pem_block");
  pemCase("ENCRYPTED PRIVATE KEY", encrypted, "private_pem_block");
  pemCase("OPENSSH PRIVATE KEY", openSsh, "private_pem_block");

  const edPublic = publicPem(ed.publicKey);
  const edPkcs8 = ed.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  pemCase("PUBLIC KEY then PRIVATE KEY", edPublic + edPkcs8, "private_pem_block", edPkcs8);
  pemCase("PRIVATE KEY then PUBLIC KEY", edPkcs8 + edPublic, "private_pem_block", edPkcs8);
  pemCase("CERTIFICATE beside an EC PRIVATE KEY", TEST_CERTIFICATE + ecSec1, "private_pem_block", ecSec1);
  pemCase("PRIVATE KEY with CRLF line ends", edPkcs8.replace(/\n/g, "\r\n"), "private_pem_block", edPkcs8);

  // Private key bytes under a public label: caught by parsing the bytes, not the label.
  const pkcs8Der = ec.privateKey.export({ format: "der", type: "pkcs8" });
  pemCase("PKCS#8 bytes labelled PUBLIC KEY", armor("PUBLIC KEY", pkcs8Der), "private_der");
  pemCase("PKCS#1 RSA private bytes labelled PUBLIC KEY", armor("PUBLIC KEY", rsa.privateKey.export({ format: "der", type: "pkcs1" })), "private_der");
  pemCase("SEC1 bytes labelled CERTIFICATE", armor("CERTIFICATE", ec.privateKey.export({ format: "der", type: "sec1" })), "private_der");
  pemCase("PKCS#8 bytes labelled CERTIFICATE beside a broken PUBLIC KEY", "-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n" + armor("CERTIFICATE", pkcs8Der), "private_der", armor("CERTIFICATE", pkcs8Der));
  const encryptedDer = ec.privateKey.export({ format: "der", type: "pkcs8", cipher: "aes-256-cbc", passphrase: "test" });
  pemCase("encrypted PKCS#8 bytes labelled PUBLIC KEY", armor("PUBLIC KEY", encryptedDer), "private_der");

  // Private JWK members one at a time on an otherwise public key, and symmetric keys.
  const edJwk = publicJwk(ed.publicKey);
  for (const member of ["d", "p", "q", "dp", "dq", "qi", "k"]) {
    const secret = randomBytes(32).toString("base64url");
    jwkCase(`public JWK plus "${member}"`, { ...edJwk, [member]: secret }, "private_jwk_member", secret);
  }
  const othSecret = randomBytes(32).toString("base64url");
  jwkCase('RSA JWK with "oth"', { ...publicJwk(rsa.publicKey), oth: [{ r: othSecret, d: othSecret, t: othSecret }] }, "private_jwk_member", othSecret);
  const octSecret = randomBytes(32).toString("base64url");
  jwkCase('kty "oct" with k', { kty: "oct", k: octSecret, alg: "HS256" }, "symmetric_jwk", octSecret);
  jwkCase('kty "oct" without k', { kty: "oct", alg: "HS256", x: octSecret }, "symmetric_jwk", octSecret);
  const nestedJwk = rsa.privateKey.export({ format: "jwk" });
  jwkCase("JWKS holding a private key", { keys: [publicJwk(ec.publicKey), nestedJwk] }, "private_jwk_member", String(nestedJwk.q));
  jwkCase("PEM private key inside x5c", { ...edJwk, x5c: [edPkcs8] }, "private_pem_block", edPkcs8.slice(40, 80));

  // A private JWK pasted as text into `pem`, and a private key in `pem` beside a valid `jwk`.
  const edPrivateJwk = ed.privateKey.export({ format: "jwk" });
  cases.push({ name: "private JWK as text in pem", submission: { pem: JSON.stringify(edPrivateJwk) }, reason: "private_jwk_member", fragments: [String(edPrivateJwk.d).slice(4, 28)] });
  cases.push({ name: "valid jwk beside a private pem", submission: { jwk: edJwk, pem: edPkcs8 }, reason: "private_pem_block", fragments: bodyFragments(edPkcs8) });

  // Bare blobs: whatever alphabet, they may be secrets.
  const raw = randomBytes(32);
  const rawCase = (name: string, text: string) =>
    cases.push({ name, submission: { pem: text }, reason: "raw_secret", fragments: [text.replace(/\s+/g, "").slice(2, 26)] });
  rawCase("bare hex", raw.toString("hex"));
  rawCase("bare 0x hex", "0x" + raw.toString("hex"));
  rawCase("bare base64", raw.toString("base64"));
  rawCase("bare base64url", raw.toString("base64url"));
  rawCase("bare base58", "5Kb8kLf9zgWQnogidDA76MzPL6TsZZY36hWXMssSzNydYXYB9KF");
  rawCase("PKCS#8 DER as base64 without armor", b64Body(pkcs8Der));
  rawCase("colon-separated hex dump", raw.toString("hex").replace(/(..)(?!$)/g, "$1:"));
  rawCase("seed phrase", "abandon ability able about above absent absorb abstract absurd abuse access accident");
  cases.push({ name: "PUBLIC KEY with a hex secret after it", submission: { pem: edPublic + raw.toString("hex") + "\n" }, reason: "raw_secret", fragments: [raw.toString("hex").slice(4, 28)] });
  const dump = `Private-Key: (256 bit)\npriv:\n    ${raw.toString("hex").replace(/(..)(?!$)/g, "$1:")}\n`;
  cases.push({ name: "openssl -text private dump", submission: { pem: dump }, reason: "private_marker", fragments: [raw.toString("hex").slice(4, 12).replace(/(..)/g, "$1:")] });
  const putty = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: test\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI\nPrivate-Lines: 1\n${raw.toString("base64")}\n`;
  cases.push({ name: "PuTTY private key", submission: { pem: putty }, reason: "private_marker", fragments: [raw.toString("base64").slice(2, 26)] });
  return cases;
}

/** Public but not publishable: certificates, weak or foreign key types, malformed input (→ `unsupported_key`). */
export function unsupportedCases(): RefusalCase[] {
  const ed = generateKeyPair("Ed25519");
  const rsa1024 = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const p521 = generateKeyPairSync("ec", { namedCurve: "P-521" });
  const rsaPss = generateKeyPairSync("rsa-pss", { modulusLength: 2048 });
  const dsa = generateKeyPairSync("dsa", { modulusLength: 2048, divisorLength: 256 });
  const rsa = generateKeyPair("RSA");
  const edPublic = publicPem(ed.publicKey);
  const cases: RefusalCase[] = [];
  const pemCase = (name: string, pem: string, reason: KeyRefusalReason) =>
    cases.push({ name, submission: { pem }, reason, fragments: bodyFragments(pem) });
  const jwkCase = (name: string, jwk: Record<string, unknown>, reason: KeyRefusalReason) =>
    cases.push({ name, submission: { jwk }, reason, fragments: [String(jwk.n ?? jwk.x).slice(4, 28)] });

  pemCase("CERTIFICATE", TEST_CERTIFICATE, "certificate");
  pemCase("CERTIFICATE beside a PUBLIC KEY", edPublic + TEST_CERTIFICATE, "certificate");
  pemCase("RSA 1024 PEM", publicPem(rsa1024.publicKey), "weak_rsa");
  jwkCase("RSA 1024 JWK", publicJwk(rsa1024.publicKey), "weak_rsa");
  pemCase("P-521 PEM", publicPem(p521.publicKey), "unsupported_curve");
  jwkCase("P-521 JWK", publicJwk(p521.publicKey), "unsupported_curve");
  jwkCase("Ed448 JWK", publicJwk(generateKeyPairSync("ed448").publicKey), "unsupported_curve");
  pemCase("X448 PEM", publicPem(generateKeyPairSync("x448").publicKey), "unsupported_curve");
  pemCase("RSA-PSS PEM", publicPem(rsaPss.publicKey), "unsupported_type");
  pemCase("DSA PEM", publicPem(dsa.publicKey), "unsupported_type");
  pemCase("RSA PUBLIC KEY (PKCS#1)", rsa.publicKey.export({ format: "pem", type: "pkcs1" }).toString(), "unsupported_format");
  pemCase("two PUBLIC KEY blocks", edPublic + publicPem(rsa.publicKey), "multiple_keys");
  jwkCase("JWK with a brainpool curve", { ...publicJwk(generateKeyPair("P-256").publicKey), crv: "brainpoolP256r1" }, "unsupported_curve");
  cases.push({ name: "public JWKS", submission: { jwk: { keys: [publicJwk(ed.publicKey)] } }, reason: "multiple_keys", fragments: [] });
  jwkCase('JWK with kty "DSA"', { kty: "DSA", x: "AQAB".repeat(8) }, "unsupported_type");
  const edX = String(publicJwk(ed.publicKey).x);
  jwkCase("Ed25519 JWK with a short x", { kty: "OKP", crv: "Ed25519", x: edX.slice(0, 20) }, "malformed");
  const ecJwk = publicJwk(generateKeyPair("P-256").publicKey);
  jwkCase("EC point off the curve", { ...ecJwk, y: ecJwk.x }, "malformed");
  jwkCase("RSA JWK with an even exponent", { ...publicJwk(rsa.publicKey), e: "AQAC" }, "malformed");
  const corrupted = edPublic.replace(/\n([A-Za-z0-9+/]{8})/, "\n!!!!!!!!");
  pemCase("PUBLIC KEY with a corrupted body", corrupted, "malformed");
  pemCase("PUBLIC KEY with truncated DER", edPublic.replace(/\n[^\n]*\n-----END/, "\nMCow\n-----END"), "malformed");
  pemCase("BEGIN without END", edPublic.replace("-----END PUBLIC KEY-----", ""), "malformed");
  cases.push({ name: "OpenSSH public key line", submission: { pem: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${edX} me@host` }, reason: "unsupported_format", fragments: [edX.slice(4, 28)] });
  cases.push({ name: "a public JWK as text in pem", submission: { pem: JSON.stringify(publicJwk(ed.publicKey)) }, reason: "unsupported_format", fragments: [edX.slice(4, 28)] });
  cases.push({ name: "neither jwk nor pem", submission: {}, reason: "unsupported_format", fragments: [] });
  cases.push({ name: "both jwk and pem", submission: { jwk: publicJwk(ed.publicKey), pem: edPublic }, reason: "unsupported_format", fragments: [edX.slice(4, 28)] });
  cases.push({ name: "a word", submission: { pem: "hello" }, reason: "unsupported_format", fragments: [] });
  cases.push({ name: "jwk that is a string", submission: { jwk: edPublic }, reason: "unsupported_format", fragments: bodyFragments(edPublic) });
  cases.push({ name: "oversized PEM", submission: { pem: edPublic + " ".repeat(16 * 1024) }, reason: "too_large", fragments: bodyFragments(edPublic) });
  cases.push({ name: "oversized JWK", submission: { jwk: { ...publicJwk(ed.publicKey), note: "n".repeat(16 * 1024) } }, reason: "too_large", fragments: [edX.slice(4, 28)] });
  return cases;
}
