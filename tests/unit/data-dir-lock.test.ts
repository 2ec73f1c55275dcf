import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openEmbeddedDatabase } from "../../src/server/db/open";
import { merchants, payments, users } from "../../src/server/db/schema";
import { embeddedTemplate } from "../support/embedded-template";

/**
 * issue: with the embedded database, `npm run staff:create` beside a running server opened the same folder, and
 * writes the server had acknowledged were gone after its restart. Now the second opener refuses at once
 * (src/server/db/data-dir-lock.ts). The server is played by tests/support/hold-data-dir.ts, a child process
 * that opens DATA_DIR the way the server does and writes through the service layer.
 */
const tsx = ["node_modules/tsx/dist/cli.mjs"];
let dataDir: string;
const children: ChildProcessWithoutNullStreams[] = [];
const holderPids: number[] = [];

function envFor(dir: string) {
  return {
    ...process.env,
    NODE_ENV: "development" as const,
    DATA_DIR: dir,
    DATABASE_URL: "",
    AUTH_SECRET: "lock-test-secret-lock-test-secret-0123",
    LOG_LEVEL: "silent",
    STAFF_PASSWORD: "staff password 0123456",
  };
}

function startHolder(dir: string) {
  const child = spawn("node", [...tsx, "tests/support/hold-data-dir.ts"], { env: envFor(dir) });
  children.push(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value } = await lines.next();
    return String(value);
  };
  const send = async (line: string) => {
    child.stdin.write(`${line}\n`);
    return next();
  };
  return { child, next, send };
}

function staffCreate(dir: string, email: string) {
  return spawnSync("node", [...tsx, "scripts/staff-create.ts", "--email", email], { env: envFor(dir), encoding: "utf8" });
}

/**
 * A new data folder holding a migrated database, as one the server made earlier: copied from the tests' template
 * (tests/support/embedded-template.ts) rather than created by the child, which would cost it seconds of initdb.
 */
async function migratedDataDir(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "mps-lock-"));
  const handle = await openEmbeddedDatabase(dir, { startFrom: await embeddedTemplate() });
  await handle.close();
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const pid of holderPids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded database's data folder", () => {
  it("refuses staff:create beside a running server, and loses none of the server's acknowledged writes", async () => {
    dataDir = await migratedDataDir();
    const server = startHolder(dataDir);
    const pid = (await server.next()).replace("ready ", "");
    holderPids.push(Number(pid));
    expect(await server.send("merchant first@example.com")).toMatch(/^ok mer_/);

    const refused = staffCreate(dataDir, "support@example.com");
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(`in use by process ${pid} (node hold-data-dir.ts`);
    expect(refused.stderr).toContain("stop the server first");
    expect(refused.stderr).toContain("DATABASE_URL");
    expect(refused.stderr).not.toContain("    at "); // a message for an operator, not a stack

    expect(await server.send("merchant second@example.com")).toMatch(/^ok mer_/);
    expect(await server.send("payments second@example.com 5")).toBe("ok 5");
    server.child.stdin.end(); // the server stops (closing the database)
    await new Promise((resolve) => server.child.once("exit", resolve));

    // Stopped: now staff:create may run, and the restarted database holds every write.
    expect(staffCreate(dataDir, "support@example.com").status).toBe(0);
    const handle = await openEmbeddedDatabase(dataDir);
    try {
      const emails = (await handle.db.select({ email: merchants.email }).from(merchants)).map((row) => row.email).sort();
      expect(emails).toEqual(["first@example.com", "second@example.com"]);
      const [second] = await handle.db.select({ id: merchants.id }).from(merchants).where(eq(merchants.email, "second@example.com"));
      const [stored] = await handle.db.select({ n: count() }).from(payments).where(eq(payments.merchantId, second!.id));
      expect(stored?.n).toBe(5);
      expect((await handle.db.select({ email: users.email }).from(users)).map((row) => row.email)).toContain("support@example.com");
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("is free again at once when its holder was SIGKILLed (the stale lock is taken over)", async () => {
    dataDir = await migratedDataDir();
    const server = startHolder(dataDir);
    // tsx runs the script in a child process of its own: kill the process that holds the folder.
    const pid = Number((await server.next()).replace("ready ", ""));
    holderPids.push(pid);
    expect(await server.send("merchant kept@example.com")).toMatch(/^ok mer_/);
    process.kill(pid, "SIGKILL");
    await new Promise((resolve) => server.child.once("exit", resolve));

    const handle = await openEmbeddedDatabase(dataDir);
    try {
      expect((await handle.db.select({ email: merchants.email }).from(merchants)).map((row) => row.email)).toEqual(["kept@example.com"]);
      // The same process opening it twice is refused too (one PGlite per folder).
      await expect(openEmbeddedDatabase(dataDir)).rejects.toThrow(`in use by process ${process.pid}`);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("is never opened by `npm run worker`: it refuses at once and says the server's inline worker delivers", () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "mps-lock-"));
    const worker = spawnSync("node", [...tsx, "scripts/worker.ts"], { env: envFor(dataDir), encoding: "utf8" });
    expect(worker.status).not.toBe(0);
    expect(worker.stderr).toContain("needs DATABASE_URL");
    expect(worker.stderr).toContain("inline worker");
  }, 120_000);
});
