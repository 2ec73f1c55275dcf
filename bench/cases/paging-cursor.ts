import { signCursor } from "../../src/lib/cursor";
import { AUTH_SECRET } from "../lib/config";

/** A signed cursor for the merchant's payments list at `position`, exactly as GET /payment would issue it. */
export async function deepCursor(merchantId: string, position: { cursor_at: string; id: string }): Promise<string | null> {
  return signCursor(AUTH_SECRET, `payments:${merchantId}`, { createdAt: position.cursor_at, id: position.id });
}
