#!/usr/bin/env node
// `npm test`'s first step: the type check, the linter and the SDK build, side by side. None needs another's
// output and each keeps one core busy, so together they take about as long as the slowest alone. Each one's
// output is printed whole when it ends (not interleaved); the exit code is the first failure's.
import { spawn } from "node:child_process";

const steps = ["typecheck", "lint", "sdk:build"];

const results = await Promise.all(
  steps.map(
    (step) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn("npm", ["run", "--silent", step], { stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        child.on("close", (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(0);
          process.stdout.write(`── npm run ${step}: ${code === 0 ? "ok" : `failed (${code})`} in ${seconds} s\n${output}`);
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exitCode = results.find((code) => code !== 0) ?? 0;
