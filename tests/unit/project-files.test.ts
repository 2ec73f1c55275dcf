import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * `npm run build` and `tsc` check the project's own folders only (tsconfig.json `include`): a reader's files saved
 * in the checkout while following the quickstart (a receiver.ts in a folder of their own, test output) are theirs,
 * and a type error there must not fail the build.
 */
const root = process.cwd();
const projectFolders = ["src", "tests", "e2e", "scripts", "bench", "sdk/src", "examples", ".next"];

function checkedFiles(): string[] {
  const config = ts.readConfigFile(path.join(root, "tsconfig.json"), (file) => ts.sys.readFile(file));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).fileNames.map((file) => path.relative(root, file));
}

describe("what the type check covers", () => {
  it("is the project's own folders and root config files, not a file left elsewhere in the checkout", () => {
    const stray = path.join(root, "test-results", "stray-folder", "receiver.ts");
    mkdirSync(path.dirname(stray), { recursive: true });
    writeFileSync(stray, "const broken: number = 'not a number';\n");
    try {
      const files = checkedFiles();
      expect(files).toContain("src/env.ts");
      expect(files).toContain("next.config.ts");
      expect(files).not.toContain(path.relative(root, stray));
      const outside = files.filter((file) => file.includes(path.sep) && !projectFolders.some((folder) => file.startsWith(folder + path.sep)));
      expect(outside).toEqual([]);
    } finally {
      rmSync(path.dirname(stray), { recursive: true, force: true });
    }
  });
});

describe("npm install on the Node.js the project pins", () => {
  it("finds every installed package's engines satisfied, so it prints no engine warning", () => {
    const { satisfies } = createRequire(import.meta.url)("semver") as { satisfies(version: string, range: string): boolean };
    const lock = createRequire(import.meta.url)(path.join(root, "package-lock.json")) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }>;
    };
    const node = (createRequire(import.meta.url)(path.join(root, "package.json")) as { dependencies: { node: string } }).dependencies.node;
    const refused = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.os || entry.os.includes(process.platform))
      .flatMap(([name, entry]) => {
        const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
        return range && !satisfies(node, range) ? [`${name || "the project"} wants node ${range}`] : [];
      });
    expect(refused).toEqual([]);
  });
});
