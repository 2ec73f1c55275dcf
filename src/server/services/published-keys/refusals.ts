import { secretAt } from "@/server/keys/jwk";
import { parseSubmittedKey, type KeySubmission } from "@/server/keys/parse";
import { isKeyRefusal, type KeyRefusal } from "@/server/keys/refusal";
import { ServiceError } from "../errors";

/** Which submitted field a refusal points at: the one that was sent (`pem` when both were). */
function fieldOf(submission: KeySubmission): "pem" | "jwk" {
  return submission.pem !== undefined ? "pem" : "jwk";
}

/** A key refusal as the caller sees it: its code, its fixed detail, and the index of the entry — nothing sent. */
export function refusalError(refusal: KeyRefusal, index: number, submission: KeySubmission): ServiceError {
  return new ServiceError(refusal.code, `keys[${index}]: ${refusal.message}`, {
    errors: [{ path: `body.keys.${index}.${fieldOf(submission)}`, message: refusal.message }],
  });
}

/**
 * Throws `private_key_material` when any part of a publish body carries private or symmetric material, and
 * ignores every other problem (the schema and the verb report those). Runs on the body as sent, before it is
 * validated: a private key is always answered as such — the caller must learn it is exposed — also when it
 * sits in a field that is not ours (`privateKey`), in `label`, or beside another field's error.
 */
export function screenForPrivateMaterial(body: unknown): void {
  const entries = (body as { keys?: unknown } | null)?.keys;
  if (Array.isArray(entries)) entries.forEach(screenEntry);
  const path = pathToPrivateMaterial(body, "body", 0);
  if (path !== null) {
    const message = "holds private or symmetric key material. Send only public keys, in keys[].jwk or keys[].pem; treat this key as exposed.";
    throw new ServiceError("private_key_material", `${path} ${message}`, { errors: [{ path, message }] });
  }
}

/** A `jwk` or `pem` entry, read as the verb reads it, so its refusal names the entry and the field. */
function screenEntry(entry: unknown, index: number): void {
  if (typeof entry !== "object" || entry === null) return;
  const { jwk, pem } = entry as KeySubmission;
  if (jwk === undefined && pem === undefined) return;
  try {
    parseSubmittedKey({ jwk, pem });
  } catch (error) {
    if (isKeyRefusal(error) && error.code === "private_key_material") {
      throw refusalError(error, index, { jwk, pem });
    }
    if (!isKeyRefusal(error)) throw error;
  }
}

/** Deeper than any body we accept; bounds the walk (and the stack) on hostile nesting. */
const MAX_SCAN_DEPTH = 16;

/**
 * Where the first private material (secretAt: a PEM private block, base64 private key DER, a JWK private
 * member, an `oct` JWK) sits in a JSON value, or null. A string holding JSON (a private JWK pasted into
 * `label` as text) is walked like the body, and reported at the string's own path.
 */
function pathToPrivateMaterial(value: unknown, path: string, depth: number): string | null {
  if (secretAt(value)) return path;
  if (depth > MAX_SCAN_DEPTH) return null;
  if (typeof value === "string") {
    const inner = jsonInside(value);
    return inner !== undefined && pathToPrivateMaterial(inner, path, depth + 1) !== null ? path : null;
  }
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = pathToPrivateMaterial(item, `${path}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** The object or array a string holds as JSON text, or undefined (most strings are not JSON: no parse). */
function jsonInside(text: string): object | undefined {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}
