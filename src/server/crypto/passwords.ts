import { hash, verify } from "@node-rs/argon2";

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes): memory-hard against GPU guessing. */
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable under isolatedModules) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A real hash to verify against when the account does not exist, so timing does not reveal that. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-for-timing-only");
  return dummyHash;
}
