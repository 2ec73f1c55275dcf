import { assertUseAllowed, parseSubmittedKey } from "@/server/keys/parse";
import { isKeyRefusal } from "@/server/keys/refusal";
import type { ParsedPublicKey } from "@/server/keys/types";
import { ValidationError } from "../errors";
import { refusalError } from "./refusals";
import type { PublishKeysData } from "./schemas";

export interface Candidate {
  kid: string;
  use: "sig" | "enc";
  label: string | null;
  key: ParsedPublicKey;
}

/**
 * Reads every submitted key before anything is written: one refusal refuses the whole request, answered
 * with the entry's index and never its content. The kid defaults to the thumbprint.
 */
export function readCandidates(entries: PublishKeysData["keys"]): Candidate[] {
  const candidates = entries.map((entry, index): Candidate => {
    try {
      const key = parseSubmittedKey({ jwk: entry.jwk, pem: entry.pem });
      assertUseAllowed(key, entry.use);
      return { kid: entry.kid ?? key.thumbprint, use: entry.use, label: entry.label ?? null, key };
    } catch (error) {
      if (isKeyRefusal(error)) throw refusalError(error, index, entry);
      throw error;
    }
  });
  assertDistinctKids(candidates);
  return candidates;
}

function assertDistinctKids(candidates: Candidate[]) {
  const seen = new Map<string, number>();
  const errors = candidates.flatMap((candidate, index) => {
    const first = seen.get(candidate.kid);
    seen.set(candidate.kid, first ?? index);
    return first === undefined ? [] : [{ path: `body.keys.${index}.kid`, message: `same kid as keys[${first}]` }];
  });
  if (errors.length > 0) throw new ValidationError(errors, "Each key in one request needs its own kid.");
}
