import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

// Generating migrations from the schema into a copy of drizzle/ must produce nothing new:
// otherwise someone changed the schema without committing its migration.
describe("schema and committed migrations", () => {
  it("agree", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mps-drift-"));
    cpSync("drizzle", path.join(dir, "drizzle"), { recursive: true });
    const config = path.join(dir, "drizzle.config.ts");
    writeFileSync(
      config,
      `export default { dialect: "postgresql", schema: ${JSON.stringify(path.resolve("src/server/db/schema/index.ts"))}, out: "./drizzle" };`,
    );
    const before = readdirSync(path.join(dir, "drizzle")).length;
    const drizzleKit = path.resolve("node_modules/.bin/drizzle-kit");
    const options = { cwd: dir, timeout: 60_000 };
    const { stdout } = await run(drizzleKit, ["generate", "--config", config], options);
    expect(readdirSync(path.join(dir, "drizzle")).length, stdout).toBe(before);
    await run(drizzleKit, ["check", "--config", config], options);
  }, 90_000);
});
