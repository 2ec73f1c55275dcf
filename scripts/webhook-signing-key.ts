/**
 * Prints a new Ed25519 key for webhook `v1a` signatures: the secret for WEBHOOK_SIGNING_KEY and its public
 * key, and the form that rotates to it. The secret goes to stdout only; put it in your secret store, not in a
 * shell history or a repository.
 *
 *   npm run webhook-signing-key
 */
import { generateSigningKey, parseSigningKey } from "../src/server/crypto/webhook-signing-key";

const secret = generateSigningKey();
const key = parseSigningKey(secret);
console.log(`WEBHOOK_SIGNING_KEY=${secret}`);
console.log(`# public key: ${key.publicKey} (kid ${key.jwk.kid}), served at /api/v1/webhook/signing-keys`);
console.log(`# to replace a key in use, overlap first (both sign) until receivers have the new public key, then set the new key alone:`);
console.log(`# WEBHOOK_SIGNING_KEY="${secret} <current whsk_ key>"   (docs/webhooks.md, "Rotating the service's key")`);
