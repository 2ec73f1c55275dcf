#!/usr/bin/env node
// `npm run test:e2e`: build the production app, find a Chromium, start the app on a fresh embedded
// database (playwright.config.ts) and run the Playwright specs. Extra arguments go to Playwright.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";

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

// A system Chromium when there is one (Debian's here: no browser downloads on this network);
// otherwise Playwright's own, fetched once — so `npm test` also works on a laptop.
const systemChromium = [env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (candidate) => candidate && existsSync(candidate),
);
if (systemChromium) env.CHROMIUM_PATH = systemChromium;
else run("node", ["node_modules/@playwright/test/cli.js", "install", "chromium"]);

const dataDir = path.resolve(`.data-e2e-${process.pid}`);
const staff = { email: "support@e2e.example", password: "e2e staff password 0123" };
try {
  run("node", ["node_modules/next/dist/bin/next", "build"], { NODE_ENV: "production" });
  // Support staff have no sign-up: seed one the operator's way, into the data folder the server will use
  // (before it starts: one process per embedded database folder).
  run("node", ["node_modules/tsx/dist/cli.mjs", "scripts/staff-create.ts", "--email", staff.email], {
    STAFF_PASSWORD: staff.password,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456",
    LOG_LEVEL: "warn",
  });
  run("node", ["node_modules/@playwright/test/cli.js", "test", ...process.argv.slice(2)], {
    E2E_DATA_DIR: dataDir,
    E2E_STAFF_EMAIL: staff.email,
    E2E_STAFF_PASSWORD: staff.password,
  });
} catch (error) {
  if (!(error instanceof StepFailed)) throw error;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
