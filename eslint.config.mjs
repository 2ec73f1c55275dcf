import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import { layerRules } from "./eslint.layers.mjs";

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
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through src/env.ts." },
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
    // Response bodies in tests are asserted field by field; typing each one would add noise, not safety.
    files: ["tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
