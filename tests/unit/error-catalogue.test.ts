import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseErrorCatalogue } from "../../src/server/openapi/error-catalogue";
import { ERROR_CODES } from "../../src/server/services/error-codes";

const root = path.resolve(import.meta.dirname, "../..");
const documented = parseErrorCatalogue(readFileSync(path.join(root, "docs/errors.md"), "utf8"));
const byCode = new Map(documented.map((entry) => [entry.code, entry]));

/** Every `"code"` handed to a ServiceError (or to its base constructor from a subclass) anywhere in src/. */
function codesThrownInSource(): { code: string; file: string }[] {
  const files = readdirSync(path.join(root, "src"), { recursive: true, encoding: "utf8" }).filter((file) =>
    /\.tsx?$/.test(file),
  );
  return files.flatMap((file) => {
    const text = readFileSync(path.join(root, "src", file), "utf8");
    const pattern = /(?:new\s+ServiceError|\bsuper)\(\s*["'`]([a-z][a-z0-9_]*)["'`]/g;
    return [...text.matchAll(pattern)].map((match) => ({ code: match[1]!, file }));
  });
}

describe("docs/errors.md", () => {
  it.each(Object.entries(ERROR_CODES))("documents %s with its status and title", (code, { status, title }) => {
    const entry = byCode.get(code);
    expect(entry, `docs/errors.md has no "### \`${code}\`" section`).toBeDefined();
    expect({ status: entry!.status, title: entry!.title }).toEqual({ status, title });
    expect(entry!.advice.length, `say what the caller should do about ${code}`).toBeGreaterThan(40);
  });

  it("documents every code thrown in the source", () => {
    const thrown = codesThrownInSource();
    expect(thrown.length, "the source scan finds the ServiceErrors").toBeGreaterThan(5);
    expect(thrown.filter(({ code }) => !byCode.has(code))).toEqual([]);
  });

  it("documents no code the catalogue lacks, and each once", () => {
    const codes = documented.map((entry) => entry.code);
    expect(codes.filter((code) => !(code in ERROR_CODES))).toEqual([]);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
  });
});
