/**
 * Test-only: real keys generated with node:crypto and every kind of submission we must refuse, shared by the
 * unit tests here and the HTTP integration tests (which submit each one, then search the database and the
 * logs for `fragments`). Nothing in the application imports this file.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { KeySubmission } from "../../src/server/keys/parse";
import type { KeyRefusalReason } from "../../src/server/keys/refusal";
import type { SupportedKeyType } from "../../src/server/keys/types";

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
const pkcs8Pem = (pair: KeyPair) => pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
/** A 24-character slice of a JWK member or a one-line text, clear of its first characters. */
const slice = (value: unknown) => String(value).replace(/\s+/g, "").slice(4, 28);

function collector() {
  const cases: RefusalCase[] = [];
  const add = (name: string, submission: KeySubmission, reason: KeyRefusalReason, fragments: string[]) =>
    cases.push({ name, submission, reason, fragments });
  return { cases, add };
}

/** Every kind of submission that is or carries private or symmetric material (→ `private_key_material`). */
export function privateMaterialCases(): RefusalCase[] {
  const { cases, add } = collector();
  const ed = generateKeyPair("Ed25519");
  const ec = generateKeyPair("P-256");
  const rsa = generateKeyPair("RSA");
  const pemCase = (name: string, pem: string, reason: KeyRefusalReason, secret = pem) =>
    add(name, { pem }, reason, bodyFragments(secret));

  for (const pair of [ed, generateKeyPair("X25519"), ec, generateKeyPair("P-384"), generateKeyPair("secp256k1"), rsa]) {
    pemCase(`${pair.keyType} PKCS#8 PRIVATE KEY`, pkcs8Pem(pair), "private_pem_block");
    const jwk = pair.privateKey.export({ format: "jwk" });
    add(`${pair.keyType} private JWK`, { jwk }, "private_jwk_member", [slice(jwk.d)]);
  }

  const ecSec1 = ec.privateKey.export({ format: "pem", type: "sec1" }).toString();
  const cipher = { cipher: "aes-256-cbc", passphrase: "test" } as const;
  pemCase("RSA PRIVATE KEY (PKCS#1)", rsa.privateKey.export({ format: "pem", type: "pkcs1" }).toString(), "private_pem_block");
  pemCase("EC PRIVATE KEY (SEC1)", ecSec1, "private_pem_block");
  pemCase("ENCRYPTED PRIVATE KEY", ec.privateKey.export({ format: "pem", type: "pkcs8", ...cipher }).toString(), "private_pem_block");
  // node:crypto cannot write OpenSSH's format; the armor is what matters and the body is opaque to us anyway.
  const openSshBody = Buffer.concat([Buffer.from("openssh-key-v1\0"), randomBytes(200)]);
  pemCase("OPENSSH PRIVATE KEY", armor("OPENSSH PRIVATE KEY", openSshBody), "private_pem_block");

  const edPublic = publicPem(ed.publicKey);
  const edPkcs8 = pkcs8Pem(ed);
  pemCase("PUBLIC KEY then PRIVATE KEY", edPublic + edPkcs8, "private_pem_block", edPkcs8);
  pemCase("PRIVATE KEY then PUBLIC KEY", edPkcs8 + edPublic, "private_pem_block", edPkcs8);
  pemCase("CERTIFICATE beside an EC PRIVATE KEY", TEST_CERTIFICATE + ecSec1, "private_pem_block", ecSec1);
  pemCase("PRIVATE KEY with CRLF line ends", edPkcs8.replace(/\n/g, "\r\n"), "private_pem_block", edPkcs8);

  // Private key bytes under a public label: caught by parsing the bytes, not the label.
  const pkcs8Der = ec.privateKey.export({ format: "der", type: "pkcs8" });
  const rsaPkcs1Der = rsa.privateKey.export({ format: "der", type: "pkcs1" });
  const sec1Der = ec.privateKey.export({ format: "der", type: "sec1" });
  const encryptedDer = ec.privateKey.export({ format: "der", type: "pkcs8", ...cipher });
  const broken = "-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n";
  pemCase("PKCS#8 bytes labelled PUBLIC KEY", armor("PUBLIC KEY", pkcs8Der), "private_der");
  pemCase("PKCS#1 RSA private bytes labelled PUBLIC KEY", armor("PUBLIC KEY", rsaPkcs1Der), "private_der");
  pemCase("SEC1 bytes labelled CERTIFICATE", armor("CERTIFICATE", sec1Der), "private_der");
  pemCase("encrypted PKCS#8 bytes labelled PUBLIC KEY", armor("PUBLIC KEY", encryptedDer), "private_der");
  const disguised = armor("CERTIFICATE", pkcs8Der);
  pemCase("PKCS#8 bytes labelled CERTIFICATE beside a broken PUBLIC KEY", broken + disguised, "private_der", disguised);

  // Private JWK members one at a time on an otherwise public key, and symmetric keys.
  const edJwk = publicJwk(ed.publicKey);
  for (const member of ["d", "p", "q", "dp", "dq", "qi", "k"]) {
    const secret = randomBytes(32).toString("base64url");
    add(`public JWK plus "${member}"`, { jwk: { ...edJwk, [member]: secret } }, "private_jwk_member", [slice(secret)]);
  }
  const secret = randomBytes(32).toString("base64url");
  const oth = [{ r: secret, d: secret, t: secret }];
  add('RSA JWK with "oth"', { jwk: { ...publicJwk(rsa.publicKey), oth } }, "private_jwk_member", [slice(secret)]);
  add('kty "oct" with k', { jwk: { kty: "oct", k: secret, alg: "HS256" } }, "symmetric_jwk", [slice(secret)]);
  add('kty "oct" without k', { jwk: { kty: "oct", alg: "HS256", x: secret } }, "symmetric_jwk", [slice(secret)]);
  const nested = rsa.privateKey.export({ format: "jwk" });
  const jwks = { keys: [publicJwk(ec.publicKey), nested] };
  add("JWKS holding a private key", { jwk: jwks }, "private_jwk_member", [slice(nested.q)]);
  add("PEM private key inside x5c", { jwk: { ...edJwk, x5c: [edPkcs8] } }, "private_pem_block", bodyFragments(edPkcs8));
  const pkcs8Base64 = pkcs8Der.toString("base64");
  add("PKCS#8 DER as base64 inside x5c", { jwk: { ...edJwk, x5c: [pkcs8Base64] } }, "encoded_private_key", [slice(pkcs8Base64)]);

  // A private JWK pasted as text into `pem`, and a private key in `pem` beside a valid `jwk`.
  const edPrivateJwk = ed.privateKey.export({ format: "jwk" });
  add("private JWK as text in pem", { pem: JSON.stringify(edPrivateJwk) }, "private_jwk_member", [slice(edPrivateJwk.d)]);
  add("valid jwk beside a private pem", { jwk: edJwk, pem: edPkcs8 }, "private_pem_block", bodyFragments(edPkcs8));

  // Bare blobs: whatever alphabet, they may be secrets.
  const raw = randomBytes(32);
  const hex = raw.toString("hex");
  const colonHex = hex.replace(/(..)(?!$)/g, "$1:");
  const rawCase = (name: string, text: string) => add(name, { pem: text }, "raw_secret", [slice(text)]);
  rawCase("bare hex", hex);
  rawCase("bare 0x hex", "0x" + hex);
  rawCase("bare base64", raw.toString("base64"));
  rawCase("bare base64url", raw.toString("base64url"));
  rawCase("bare base58", "5Kb8kLf9zgWQnogidDA76MzPL6TsZZY36hWXMssSzNydYXYB9KF");
  rawCase("colon-separated hex dump", colonHex);
  rawCase("seed phrase", "abandon ability able about above absent absorb abstract absurd abuse access accident");
  add("PKCS#8 DER as base64 without armor", { pem: b64Body(pkcs8Der) }, "raw_secret", bodyFragments(b64Body(pkcs8Der)));
  add("PUBLIC KEY with a hex secret after it", { pem: `${edPublic}${hex}\n` }, "raw_secret", [slice(hex)]);
  const dump = `Private-Key: (256 bit)\npriv:\n    ${colonHex}\n`;
  add("openssl -text private dump", { pem: dump }, "private_marker", [colonHex.slice(6, 30)]);
  const base64 = raw.toString("base64");
  const putty = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n${base64}\n`;
  add("PuTTY private key", { pem: putty }, "private_marker", [slice(base64)]);
  return cases;
}

export interface PrivateText {
  name: string;
  /** A private key written as one string, as it could be pasted into a label or any other text field. */
  text: string;
  fragments: string[];
}

/** Private keys as plain text without PEM armour: JWKs as JSON text, DER as base64 or base64url. */
export function privateKeysAsText(): PrivateText[] {
  const ed = generateKeyPair("Ed25519");
  const ec = generateKeyPair("P-256");
  const rsa = generateKeyPair("RSA");
  const edJwk = ed.privateKey.export({ format: "jwk" });
  const ecJwk = ec.privateKey.export({ format: "jwk" });
  const edDer = ed.privateKey.export({ format: "der", type: "pkcs8" });
  const encrypted = ec.privateKey.export({ format: "der", type: "pkcs8", cipher: "aes-256-cbc", passphrase: "test" });
  const texts: [string, string, string][] = [
    ["an Ed25519 private JWK as JSON text", JSON.stringify(edJwk), String(edJwk.d)],
    ["a P-256 private JWK as indented JSON text", JSON.stringify(ecJwk, null, 2), String(ecJwk.d)],
    ["a JWK Set holding a private key, as JSON text", JSON.stringify({ keys: [edJwk] }), String(edJwk.d)],
    ["Ed25519 PKCS#8 DER as base64", edDer.toString("base64"), edDer.toString("base64")],
    ["Ed25519 PKCS#8 DER as base64url", edDer.toString("base64url"), edDer.toString("base64url")],
    ["RSA PKCS#1 DER as base64 in 64-character lines", b64Body(rsa.privateKey.export({ format: "der", type: "pkcs1" })), ""],
    ["P-256 SEC1 DER as base64", ec.privateKey.export({ format: "der", type: "sec1" }).toString("base64"), ""],
    ["encrypted PKCS#8 DER as base64", encrypted.toString("base64"), encrypted.toString("base64")],
  ];
  return texts.map(([name, text, secret]) => ({ name, text, fragments: secret ? [slice(secret)] : bodyFragments(text) }));
}

/** Public but not publishable: certificates, weak or foreign key types, malformed input (→ `unsupported_key`). */
export function unsupportedCases(): RefusalCase[] {
  const { cases, add } = collector();
  const ed = generateKeyPair("Ed25519");
  const rsa = generateKeyPair("RSA");
  const edPublic = publicPem(ed.publicKey);
  const edX = String(publicJwk(ed.publicKey).x);
  const pemCase = (name: string, pem: string, reason: KeyRefusalReason) =>
    add(name, { pem }, reason, bodyFragments(pem));
  const jwkCase = (name: string, jwk: Record<string, unknown>, reason: KeyRefusalReason) =>
    add(name, { jwk }, reason, [slice(jwk.n ?? jwk.x)]);
  const other = {
    rsa1024: generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey,
    p521: generateKeyPairSync("ec", { namedCurve: "P-521" }).publicKey,
    ed448: generateKeyPairSync("ed448").publicKey,
    x448: generateKeyPairSync("x448").publicKey,
    rsaPss: generateKeyPairSync("rsa-pss", { modulusLength: 2048 }).publicKey,
    dsa: generateKeyPairSync("dsa", { modulusLength: 2048, divisorLength: 256 }).publicKey,
  };

  pemCase("CERTIFICATE", TEST_CERTIFICATE, "certificate");
  pemCase("CERTIFICATE beside a PUBLIC KEY", edPublic + TEST_CERTIFICATE, "certificate");
  pemCase("RSA 1024 PEM", publicPem(other.rsa1024), "weak_rsa");
  jwkCase("RSA 1024 JWK", publicJwk(other.rsa1024), "weak_rsa");
  pemCase("P-521 PEM", publicPem(other.p521), "unsupported_curve");
  jwkCase("P-521 JWK", publicJwk(other.p521), "unsupported_curve");
  jwkCase("Ed448 JWK", publicJwk(other.ed448), "unsupported_curve");
  pemCase("X448 PEM", publicPem(other.x448), "unsupported_curve");
  pemCase("RSA-PSS PEM", publicPem(other.rsaPss), "unsupported_type");
  pemCase("DSA PEM", publicPem(other.dsa), "unsupported_type");
  const pkcs1Public = rsa.publicKey.export({ format: "pem", type: "pkcs1" }).toString();
  pemCase("RSA PUBLIC KEY (PKCS#1)", pkcs1Public, "unsupported_format");
  pemCase("two PUBLIC KEY blocks", edPublic + publicPem(rsa.publicKey), "multiple_keys");
  const ecJwk = publicJwk(generateKeyPair("P-256").publicKey);
  jwkCase("JWK with a brainpool curve", { ...ecJwk, crv: "brainpoolP256r1" }, "unsupported_curve");
  add("public JWKS", { jwk: { keys: [publicJwk(ed.publicKey)] } }, "multiple_keys", [slice(edX)]);
  jwkCase('JWK with kty "DSA"', { kty: "DSA", x: "AQAB".repeat(8) }, "unsupported_type");
  jwkCase("Ed25519 JWK with a short x", { kty: "OKP", crv: "Ed25519", x: edX.slice(0, 20) }, "malformed");
  jwkCase("EC point off the curve", { ...ecJwk, y: ecJwk.x }, "malformed");
  jwkCase("RSA JWK with an even exponent", { ...publicJwk(rsa.publicKey), e: "AQAC" }, "malformed");
  pemCase("PUBLIC KEY with a corrupted body", edPublic.replace(/\n([A-Za-z0-9+/]{8})/, "\n!!!!!!!!"), "malformed");
  pemCase("PUBLIC KEY with truncated DER", edPublic.replace(/\n[^\n]*\n-----END/, "\nMCow\n-----END"), "malformed");
  pemCase("BEGIN without END", edPublic.replace("-----END PUBLIC KEY-----", ""), "malformed");
  const sshLine = `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${edX} me@host`;
  add("OpenSSH public key line", { pem: sshLine }, "unsupported_format", [slice(edX)]);
  add("a public JWK as text in pem", { pem: JSON.stringify(publicJwk(ed.publicKey)) }, "unsupported_format", [slice(edX)]);
  add("neither jwk nor pem", {}, "unsupported_format", []);
  add("both jwk and pem", { jwk: publicJwk(ed.publicKey), pem: edPublic }, "unsupported_format", [slice(edX)]);
  add("a word", { pem: "hello" }, "unsupported_format", []);
  add("jwk that is a string", { jwk: edPublic }, "unsupported_format", bodyFragments(edPublic));
  add("oversized PEM", { pem: edPublic + " ".repeat(16 * 1024) }, "too_large", bodyFragments(edPublic));
  const bigJwk = { ...publicJwk(ed.publicKey), note: "n".repeat(16 * 1024) };
  add("oversized JWK", { jwk: bigJwk }, "too_large", [slice(edX)]);
  return cases;
}
