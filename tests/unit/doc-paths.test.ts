import { existsSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The documents name files of this repository; a file moved or removed must take its mentions with it. Checked:
 * paths from a top-level folder (`src/server/db/open.ts`, `scripts/worker.ts`), backticked source files named
 * from below src/ (`services/payments/list.ts`), and backticked file names alone (`claim.ts`: some file has it).
 */

const root = path.resolve(import.meta.dirname, "../..");
const TOP = ["src", "scripts", "tests", "bench", "e2e", "sdk", "examples", "drizzle", "docs"];
/** Written by builds and test runs, not kept in the repository. */
const GENERATED = ["sdk/dist/", "test-results/", "bench/results/", "bench/floor/.next"];
/** Files by name that a run writes: the tuned floor's configuration (bench/lib/env.ts). */
const WRITTEN_BY_RUNS = ["next.config.mjs"];
/** Where a path that starts below src/ is read from, as the sentence around it says. */
const SOURCE_BASES = ["src/", "src/server/", "src/server/services/", "src/server/db/"];

const documents = [
  "README.md",
  "BENCHMARKS.md",
  "src/server/README.md",
  "sdk/README.md",
  ...readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
];

/**
 * The path alone: without the rest of a Markdown link (`[docs/x.md](docs/x.md)`), trailing punctuation of the
 * sentence, or a closing parenthesis that belongs to it (a folder such as `(auth)` keeps its own).
 */
function trimmed(mention: string): string {
  let text = mention.split("](")[0]!.replace(/[.,:;]+$/, "");
  while (text.endsWith(")") && text.split("(").length < text.split(")").length) text = text.slice(0, -1).replace(/[.,:;]+$/, "");
  return text;
}

/** The names of the repository's source files, for a mention by name alone. */
function sourceFileNames(): Set<string> {
  const names = new Set<string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true }) as Dirent[]) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      if (entry.isDirectory()) walk(path.join(folder, entry.name));
      else names.add(entry.name);
    }
  };
  ["src", "scripts", "tests", "bench", "e2e", "sdk/src", "examples"].forEach(walk);
  for (const entry of readdirSync(root, { withFileTypes: true })) if (entry.isFile()) names.add(entry.name);
  return names;
}
const fileNames = sourceFileNames();

function mentionsIn(text: string): { mention: string; candidates: string[] }[] {
  const found: { mention: string; candidates: string[] }[] = [];
  // Not after a slash or a word character: `/docs/errors` is a URL of the app, not the folder.
  const fromTop = new RegExp(`(?<![\\w/.-])(?:${TOP.join("|")})/[\\w@.()\\[\\]/-]*`, "g");
  for (const match of text.matchAll(fromTop)) {
    const mention = trimmed(match[0]);
    // A pattern (`tests/support/fuzz-*.ts`, `src/instrumentation*.ts`) names files, not one.
    if (/[*<{…]/.test(text[match.index + match[0].length] ?? "")) continue;
    if (GENERATED.some((prefix) => mention.startsWith(prefix))) continue;
    found.push({ mention, candidates: [mention] });
  }
  for (const match of text.matchAll(/`([\w@()[\]-]+(?:\/[\w@.()[\]-]+)+\.tsx?)`/g)) {
    const mention = match[1]!;
    if (TOP.some((top) => mention.startsWith(`${top}/`))) continue;
    found.push({ mention, candidates: SOURCE_BASES.map((base) => base + mention) });
  }
  for (const match of text.matchAll(/`([\w.-]+\.(?:tsx?|mjs))`/g)) {
    if (!fileNames.has(match[1]!) && !WRITTEN_BY_RUNS.includes(match[1]!)) found.push({ mention: match[1]!, candidates: [] });
  }
  return found;
}

describe("the documents name files that exist", () => {
  it.each(documents)("%s", (document) => {
    const missing = mentionsIn(readFileSync(path.join(root, document), "utf8"))
      .filter(({ candidates }) => !candidates.some((candidate) => existsSync(path.join(root, candidate))))
      .map(({ mention }) => mention);
    expect(missing).toEqual([]);
  });
});
