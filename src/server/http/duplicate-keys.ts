/**
 * The first key that appears twice in one object of a JSON text, as its path (`["metadata", "a"]`), or null.
 * JSON.parse keeps the last of duplicate keys silently; the API refuses them instead (docs/decisions.md).
 *
 * Runs on text JSON.parse has already accepted, so it only needs to know strings from structure: one pass,
 * no recursion (a body may nest thousands deep), keys compared after unescaping (`"a"` and `"\u0061"` are
 * one key). Array elements appear in the path as their index.
 */
export function firstDuplicateKey(text: string): string[] | null {
  // Fast path: without two quoted strings before a colon there cannot be two keys.
  if (text.indexOf(":") === text.lastIndexOf(":")) return null;
  type Frame = { keys: Set<string> | null; key: string; index: number };
  const stack: Frame[] = [];
  let expectingKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      const frame = stack.at(-1);
      if (expectingKey && frame?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (frame.keys.has(key)) return [...pathOf(stack.slice(0, -1)), key];
        frame.keys.add(key);
        frame.key = key;
        expectingKey = false;
      }
      i = end;
    } else if (char === "{") {
      stack.push({ keys: new Set(), key: "", index: 0 });
      expectingKey = true;
    } else if (char === "[") {
      stack.push({ keys: null, key: "", index: 0 });
    } else if (char === "}" || char === "]") {
      stack.pop();
    } else if (char === ",") {
      const frame = stack.at(-1);
      if (frame?.keys) expectingKey = true;
      else if (frame) frame.index++;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function pathOf(frames: { keys: Set<string> | null; key: string; index: number }[]): string[] {
  return frames.map((frame) => (frame.keys ? frame.key : String(frame.index)));
}
