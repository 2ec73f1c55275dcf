import { isId } from "@/lib/ids";

/** Opaque list cursors: the id of the last row of the page, base64url-encoded so clients do not parse it. */
export function encodeCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** The delivery id inside a cursor, or null when the cursor was not made by encodeCursor. */
export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  return isId("delivery", id) ? id : null;
}
