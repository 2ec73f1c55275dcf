/** A signed cursor for the payments list at a position, as the API would issue it (null until it exists). */
export async function deepCursor(_merchantId: string, _position: { cursor_at: string; id: string }): Promise<string | null> {
  return null;
}
