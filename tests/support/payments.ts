import { randomBytes } from "node:crypto";

/** A unique externalId, so test cases never collide inside one test file's database. */
export function externalId(prefix = "tx"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}
