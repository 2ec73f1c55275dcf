import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A passkey authenticator in software, for integration tests of the server's WebAuthn checks without a browser
 * (the browser's own path runs in e2e with Chromium's virtual authenticator). It makes what an authenticator makes:
 * an ES256 key pair per credential, "none" attestation, authenticator data with user presence and verification,
 * and assertions signed over authenticator data and the client data's hash (WebAuthn Level 2, §6.1, §6.5).
 */
const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];
  constructor(private readonly origin: string) {}

  private get rpIdHash() {
    return sha256(new URL(this.origin).hostname);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Answers registration options (`navigator.credentials.create`). */
  register(options: { challenge: string; user: { id: string } }, flags: { userVerified?: boolean } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const credential: Credential = { id: randomBytes(16), privateKey, publicKey, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.rpIdHash,
      Buffer.from([0x01 | (flags.userVerified === false ? 0 : 0x04) | 0x40]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      credential.id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: { clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
    };
  }

  /** Answers authentication options (`navigator.credentials.get`) with its newest credential, or the one given. */
  authenticate(options: { challenge: string }, which: { credentialId?: string; userVerified?: boolean; counter?: number } = {}) {
    const credential = which.credentialId ? this.credentials.find((c) => b64url(c.id) === which.credentialId)! : this.credentials.at(-1)!;
    credential.counter = which.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([this.rpIdHash, Buffer.from([0x01 | (which.userVerified === false ? 0 : 0x04)]), counter]);
    const clientData = this.clientData("webauthn.get", options.challenge);
    const signature = createSign("SHA256").update(Buffer.concat([authData, sha256(clientData)])).sign(credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
    };
  }
}
