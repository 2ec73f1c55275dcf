import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// Integration tests run on embedded PGlite always, and on the PostgreSQL server as well when DATABASE_URL
// is set (each run creates its own database from it and drops it afterwards: tests/support/database.ts).
const serverUrl = process.env.DATABASE_URL;
const integration = ["tests/integration/**/*.test.ts"];

/**
 * Files that compare a latency with one measured moments before on the same machine (another merchant's webhooks
 * delayed by less than a second): they run after the others, so that no other file's work starts between the two
 * measurements. Their projects are `embedded:alone` and `server:alone` (docs/testing.md), which run side by side:
 * each holds one file, the same one on each database, and they wait far more than they compute (16 % of the two
 * cores together; one after the other, they left the machine idle for 36 s at the end of every run).
 */
const runAlone = ["tests/integration/webhooks/isolation.test.ts"];

/**
 * A database project, and its `:alone` twin for the files of `runAlone`. Their files share each worker's loaded
 * modules (`isolate: false`): loading the app once per file was half of the run's wall time. Each file still has a
 * runtime and a database of its own, and the state a process keeps is kept per runtime or per merchant
 * (docs/testing.md, "Files share a process"; eslint.config.mjs refuses mocks, stubs and the like in those files).
 */
function databaseProjects(name: string, include: string[], test: TestProjectInlineConfiguration["test"]): TestProjectInlineConfiguration[] {
  test = { ...test, isolate: false };
  return [
    { extends: true, test: { ...test, name, include, exclude: [...configDefaults.exclude, ...runAlone] } },
    { extends: true, test: { ...test, name: `${name}:alone`, include: runAlone, maxWorkers: 2, sequence: { groupOrder: 1 } } },
  ];
}

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // As many test files at a time as there are cores, and at least two. Vitest's own default, one fewer than the
    // cores, runs every file in turn on a 2-core machine, while integration files spend much of their time
    // waiting on the PostgreSQL server, child processes and timers (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts", "sdk/src/**/*.test.ts"],
          environment: "node",
          // Not `isolate: false`, though sharing loaded modules between files halves this project's CPU: the
          // refusals before Next.js count against a per-IP budget held in module state, which another file's
          // requests would spend (src/server/http/refuse-before-next.test.ts then sees 429s).
        },
      },
      ...databaseProjects("embedded", integration, {
        env: { TEST_DATABASE: "embedded" },
        // Makes the migrated database every embedded test database starts from (docs/testing.md).
        globalSetup: ["tests/support/embedded-template.ts"],
      }),
      ...(serverUrl
        ? databaseProjects("server", [...integration, "tests/server-only/**/*.test.ts"], {
            env: { TEST_DATABASE: "server", TEST_SERVER_URL: serverUrl },
            globalSetup: ["tests/support/server-database-setup.ts"],
          })
        : []),
    ],
  },
});
