import { readFile } from "node:fs/promises";
import path from "node:path";

export interface ErrorDocEntry {
  code: string;
  status: number;
  title: string;
  /** What the caller should do: the section's text after its opening status and title (markdown). */
  advice: string;
}

const SECTION = /^### `([a-z][a-z0-9_]*)`\s*$/m;
const OPENING = /^\*\*(\d{3}) (.+?)\.\*\*\s*/;

/**
 * Reads docs/errors.md: one `### \`code\`` section per code, opening with `**<status> <title>.**`.
 * The docs page renders it and a unit test holds it to the catalogue, so the format is kept this simple.
 */
export function parseErrorCatalogue(markdown: string): ErrorDocEntry[] {
  const parts = markdown.split(SECTION);
  const entries: ErrorDocEntry[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const code = parts[i]!;
    const text = parts[i + 1]!.split(/^#{1,3} /m)[0]!.trim();
    const opening = OPENING.exec(text);
    entries.push({
      code,
      status: opening ? Number(opening[1]) : NaN,
      title: opening?.[2] ?? "",
      advice: opening ? text.slice(opening[0].length).trim() : text,
    });
  }
  return entries;
}

/** docs/errors.md from the project root (the working directory, as for migrations). */
export async function readErrorCatalogue(): Promise<ErrorDocEntry[]> {
  return parseErrorCatalogue(await readFile(path.join(process.cwd(), "docs", "errors.md"), "utf8"));
}
