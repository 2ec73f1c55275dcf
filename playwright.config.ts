import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests drive the production build (`next start`) in a real Chromium. The server runs on the
 * embedded database in a fresh data folder of its own (a PGlite folder belongs to one process), started
 * by scripts/e2e.mjs, which also builds the app and finds a browser.
 */
const port = Number(process.env.E2E_PORT ?? 3107);
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      // Debian's Chromium as root in a sandbox without network: these keep it quiet and working.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "api", testDir: "e2e/api", use: { ...devices["Desktop Chrome"], channel: undefined } },
    { name: "dashboard", testDir: "e2e/dashboard", use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  webServer: {
    command: `node node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/api/v1/health/ready`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: "",
      DATA_DIR: process.env.E2E_DATA_DIR ?? ".data-e2e",
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456",
      AUTH_TRUST_HOST: "true",
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // The specs play the part of one proxy in front: each gives itself a client address in X-Forwarded-For,
      // so per-IP limits (sign-up, login) count each test on its own.
      TRUSTED_PROXY_HOPS: "1",
      WEBHOOK_RETRY_SCHEDULE: "0,300ms,600ms",
      // e2e/api/metrics.spec.ts scrapes the production build (the metrics must survive its bundling).
      METRICS_TOKEN: "e2e-metrics-token-e2e-metrics-token-0123",
    },
  },
});
