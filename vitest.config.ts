import path from "node:path";
import { defineConfig } from "vitest/config";

// Integration tests run on embedded PGlite always, and on the PostgreSQL server as well when DATABASE_URL
// is set (each run creates its own database from it and drops it afterwards: tests/support/database.ts).
const serverUrl = process.env.DATABASE_URL;
const integration = ["tests/integration/**/*.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts", "sdk/src/**/*.test.ts"], environment: "node" } },
      {
        extends: true,
        test: {
          name: "embedded",
          include: integration,
          env: { TEST_DATABASE: "embedded" },
        },
      },
      ...(serverUrl
        ? [
            {
              extends: true as const,
              test: {
                name: "server",
                include: [...integration, "tests/server-only/**/*.test.ts"],
                env: { TEST_DATABASE: "server", TEST_SERVER_URL: serverUrl },
                globalSetup: ["tests/support/server-database-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
