#!/usr/bin/env node
// `npm run test:e2e`: build the production app, find a Chromium, start the app on a fresh embedded
// database (playwright.config.ts) and run the Playwright specs. Extra arguments go to Playwright.
// With DATABASE_URL (a local PostgreSQL server), it also creates a fresh database there, on which the
// cross-feature journeys (e2e/journeys) run a second time, and drops it afterwards.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { systemChromium } from "./chromium-path.mjs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

class StepFailed extends Error {}

// A failed step ends the run through `finally` (which removes the data folder), with the step's exit code.
function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    process.exitCode = result.status ?? 1;
    throw new StepFailed(`${command} ${args[0]} failed`);
  }
}

// A system Chromium when there is one (scripts/chromium-path.mjs); otherwise Playwright's own, fetched once — so
// `npm test` also works on a laptop.
const chromium = systemChromium();
if (chromium) env.CHROMIUM_PATH = chromium;
else run("node", ["node_modules/@playwright/test/cli.js", "install", "chromium"]);

const dataDir = path.resolve(`.data-e2e-${process.pid}`);
// The run's SMTP sink (e2e/mail/global-sink.ts) listens where every web server sends mail: a port free now, not a
// fixed one another program may hold.
env.E2E_SMTP_PORT ??= String(await freePort());
const staff = { email: "support@e2e.example", password: "e2e staff password 0123" };
const serverDatabase = env.DATABASE_URL ? await createServerDatabase(env.DATABASE_URL) : null;
try {
  // E2E_REUSE_BUILD=1 keeps the last build: `npm test` builds beside `vitest run` (scripts/test.mjs), and by hand
  // between runs of a few specs with no change to the app.
  if (!(env.E2E_REUSE_BUILD === "1" && existsSync(".next/BUILD_ID"))) run("node", ["node_modules/next/dist/bin/next", "build"], { NODE_ENV: "production" });
  // Support staff have no sign-up: seed one the operator's way, into the data folder the server will use
  // (before it starts: one process per embedded database folder), and into the server's fresh database.
  for (const database of [{ DATA_DIR: dataDir, DATABASE_URL: "" }, ...(serverDatabase ? [{ DATABASE_URL: serverDatabase.url }] : [])]) {
    run("node", ["node_modules/tsx/dist/cli.mjs", "scripts/staff-create.ts", "--email", staff.email], {
      STAFF_PASSWORD: staff.password,
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456",
      LOG_LEVEL: "warn",
      ...database,
    });
  }
  run("node", ["node_modules/@playwright/test/cli.js", "test", ...process.argv.slice(2)], {
    E2E_DATA_DIR: dataDir,
    E2E_STAFF_EMAIL: staff.email,
    E2E_STAFF_PASSWORD: staff.password,
    E2E_SERVER_DATABASE_URL: serverDatabase?.url ?? "",
  });
} catch (error) {
  if (!(error instanceof StepFailed)) throw error;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  await serverDatabase?.drop();
}

/** A TCP port nothing listens on at this moment (the OS's choice). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh database on the (local) server for the journeys' second run; the server's processes migrate it. */
async function createServerDatabase(serverUrl) {
  const host = new URL(serverUrl).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`Refusing to create test databases on a non-local server (${host}).`);
  }
  const { default: pg } = await import("pg");
  const name = `mps_e2e_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
