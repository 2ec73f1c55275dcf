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
 * Throws `private_key_material` for the first entry that carries private or symmetric material, and
 * ignores every other problem (the verb reports those). Run while the body is validated, before any
 * other field error, so a private key is always answered as such — the caller must learn it is exposed.
 */
export function screenForPrivateMaterial(entries: readonly unknown[]): void {
  entries.forEach((entry, index) => {
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
  });
}
