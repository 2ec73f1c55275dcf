#!/usr/bin/env node
// `npm test`'s first step: the type check, the linter and the SDK build, side by side. None needs another's
// output and each keeps one core busy, so together they take about as long as the slowest alone. Each one's
// output is printed whole when it ends (not interleaved); the exit code is the first failure's.
import { startStep } from "./step.mjs";

const steps = ["typecheck", "lint", "sdk:build"];

const results = await Promise.all(
  steps.map(async (step) => {
    const started = Date.now();
    const { code, output } = await startStep("npm", ["run", "--silent", step], { keepOutput: true }).done;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    process.stdout.write(`── npm run ${step}: ${code === 0 ? "ok" : `failed (${code})`} in ${seconds} s\n${output}`);
    return code;
  }),
);
process.exitCode = results.find((code) => code !== 0) ?? 0;
