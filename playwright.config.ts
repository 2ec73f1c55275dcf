import { defineConfig, devices } from "@playwright/test";
import { systemChromium } from "./scripts/chromium-path.mjs";

/**
 * End-to-end tests drive the production build (`next start`) in a real Chromium. The server runs on the
 * embedded database in a fresh data folder of its own (a PGlite folder belongs to one process), started
 * by scripts/e2e.mjs, which also builds the app and finds a browser. When the runner was given a PostgreSQL
 * server (DATABASE_URL), it also creates a fresh database there (E2E_SERVER_DATABASE_URL) and the cross-feature
 * journeys (e2e/journeys) run a second time against a second server on that database.
 */
const port = Number(process.env.E2E_PORT ?? 3107);
const serverDatabaseUrl = process.env.E2E_SERVER_DATABASE_URL;
const serverPort = Number(process.env.E2E_SERVER_PORT ?? port + 1);
/** Where the servers send mail (invitations, password resets): the run's SMTP sink (e2e/mail/global-sink.ts), on a port scripts/e2e.mjs finds free. */
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2525);
const chromiumPath = systemChromium();

const serverEnv = {
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
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
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  // The specs sign the seeded staff login in many times a minute, faster than an authenticator's codes change
  // (a code is accepted once); production's staff requirement is tested in tests/integration/dashboard/second-factors.test.ts.
  STAFF_SECOND_FACTOR: "optional",
  MAIL_FROM: "Payments <no-reply@e2e.example>",
};

function server(listenOn: number, env: Record<string, string>) {
  return {
    command: `node node_modules/next/dist/bin/next start -p ${listenOn} -H 127.0.0.1`,
    url: `http://127.0.0.1:${listenOn}/api/v1/health/ready`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: { ...serverEnv, ...env },
  };
}

const chrome = { ...devices["Desktop Chrome"], channel: undefined };

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/mail/global-sink.ts",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  // Three browsers at once on two cores: much of a spec's time is waiting (on the server, on a page settling, on an
  // invoice's expiry), which a third fills. In the headless shell, the whole run took 212–223 s with three against
  // 242–250 s with two; each spec runs slower (summed 569–598 s against 458 s), far inside its timeout. Four, in the
  // full browser, failed two specs on timing (docs/testing.md). Specs within a file stay in order; every spec signs
  // up its own merchant (staff share one account).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A failed test keeps its trace (actions, DOM snapshots, network) and a screenshot. The trace's screencast is left
    // out: encoding its frames in every test's browser cost about a tenth of the run (the dashboard project: 3.0 min
    // with it, 2.6 min with no trace at all).
    trace: { mode: "retain-on-failure", screenshots: false },
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
    { name: "api", testDir: "e2e/api", use: chrome },
    { name: "dashboard", testDir: "e2e/dashboard", use: chrome },
    { name: "journeys", testDir: "e2e/journeys", use: chrome },
    // The journeys again on the PostgreSQL server, with a second web process on the same database: a session
    // ended through one must be refused by the other (docs/dashboard.md, "Sessions").
    ...(serverDatabaseUrl
      ? [
          {
            name: "journeys-server-db",
            testDir: "e2e/journeys",
            use: { ...chrome, baseURL: `http://127.0.0.1:${serverPort}` },
            metadata: { secondProcessURL: `http://127.0.0.1:${serverPort + 1}` },
          },
        ]
      : []),
  ],
  webServer: [
    server(port, { DATABASE_URL: "", DATA_DIR: process.env.E2E_DATA_DIR ?? ".data-e2e" }),
    ...(serverDatabaseUrl
      ? [server(serverPort, { DATABASE_URL: serverDatabaseUrl }), server(serverPort + 1, { DATABASE_URL: serverDatabaseUrl, WEBHOOK_WORKER: "off" })]
      : []),
  ],
});
