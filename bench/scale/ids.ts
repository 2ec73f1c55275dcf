import { randomBytes } from "node:crypto";

/** A payment's externalId no other request of the run uses. */
export function externalIdFor(label: string): string {
  return `${label}-${randomBytes(8).toString("hex")}`;
}
