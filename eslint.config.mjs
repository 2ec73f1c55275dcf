import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import { layerRules } from "./eslint.layers.mjs";

const configurationFromEnvTs = { object: "process", property: "env", message: "Read configuration through src/env.ts." };

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", "bench/floor/.next/", ".data/", ".data-*/", "drizzle/", "test-results/", "playwright-report/", "next-env.d.ts", "sdk/dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    // Configuration is read once, in src/env.ts.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/env.ts"],
    rules: { "no-restricted-properties": ["error", configurationFromEnvTs] },
  },
  {
    // After a write the dashboard refreshes through one hook, which also refetches a list whose first load was in flight.
    files: ["src/components/**/*.{ts,tsx}", "src/app/**/*.{ts,tsx}", "src/lib/**/*.{ts,tsx}"],
    ignores: ["src/components/ui/use-refresh-after-write.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        configurationFromEnvTs,
        { property: "invalidateQueries", message: "Call useRefreshAfterWrite() (src/components/ui/use-refresh-after-write.ts)." },
      ],
    },
  },
  ...layerRules,
  {
    files: ["scripts/**", "bench/**", "e2e/**", "tests/**", "*.config.*"],
    languageOptions: { globals: globals.node },
    rules: { "no-console": "off" },
  },
  {
    // Integration files share a process with the files before them (vitest.config.ts, `isolate: false`): nothing in
    // them may change what the process gives the next file (docs/testing.md, "Files share a process").
    files: ["tests/integration/**", "tests/server-only/**", "tests/support/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["mock", "doMock", "stubGlobal", "stubEnv", "useFakeTimers", "spyOn"].map((property) => ({
          object: "vi",
          property,
          message: "Integration files share a process: a mock, stub or fake clock would reach the next file. Inject it (the runtime's `now`, env).",
        })),
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message: "Integration files share a process: pass configuration to createTestRuntime({ env }) instead.",
        },
        {
          selector: "CallExpression[callee.object.name='process'][callee.property.name=/^(on|once|addListener|prependListener)$/]",
          message: "Integration files share a process: a listener on it would outlive this file.",
        },
      ],
    },
  },
  {
    // Response bodies in tests are asserted field by field; typing each one would add noise, not safety.
    files: ["tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
