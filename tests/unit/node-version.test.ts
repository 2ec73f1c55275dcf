import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The project runs on the Node.js its `node` dependency pins (package.json): `npm install` puts that binary in
 * node_modules/.bin, which npm scripts and `npx` put first on PATH, so everything they start runs on it too.
 */
const pinned = `v${(JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: { node: string } }).dependencies.node}`;

describe("the Node.js the project runs on", () => {
  it("is the pinned one, in the test runner and in a `node` it spawns", () => {
    expect(pinned).toMatch(/^v24\./);
    expect(process.version, "run the tests through npm (npm test, npx vitest): the machine's own node is not the project's").toBe(pinned);
    expect(spawnSync("node", ["-p", "process.version"], { encoding: "utf8" }).stdout.trim()).toBe(pinned);
  });
});
