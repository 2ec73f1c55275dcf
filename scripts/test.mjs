#!/usr/bin/env node
// `npm test` after its checks (scripts/checks.mjs): `vitest run` and the production build that the end-to-end tests
// drive, side by side, then the end-to-end tests on that build (scripts/e2e.mjs). Side by side because the test
// files leave part of two cores idle (they wait on the database, child processes and timers) and the build fills
// it: 228 s for both together against 215 s and 28 s one after the other (docs/testing.md, "Timings"). The build's
// output is printed whole once the tests end. Failing tests stop the build and end the run with their exit code; a
// failed build ends it, after the tests, with its own.
import { startStep } from "./step.mjs";

// The type check ran in scripts/checks.mjs: the build does not check the types a second time (next.config.ts).
const build = startStep("node", ["node_modules/next/dist/bin/next", "build"], { env: { NODE_ENV: "production", NEXT_BUILD_TYPECHECKED: "1" }, keepOutput: true });
const tests = startStep("node", ["node_modules/vitest/vitest.mjs", "run"]);

const testsEnded = await tests.done;
if (testsEnded.code !== 0) {
  build.child.kill("SIGTERM");
  process.exit(testsEnded.code);
}
const built = await build.done;
process.stdout.write(`── next build: ${built.code === 0 ? "ok" : `failed (${built.code})`}\n${built.output}`);
if (built.code !== 0) process.exit(built.code);

const e2e = startStep("node", ["scripts/e2e.mjs"], { env: { E2E_REUSE_BUILD: "1" } });
process.exit((await e2e.done).code);
