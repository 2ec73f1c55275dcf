import { defineConfig } from "drizzle-kit";

// Migrations are generated from the schema and committed; they are applied by the app at start-up
// (src/server/db/migrate.ts), never with `drizzle-kit push`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema/index.ts",
  out: "./drizzle",
  strict: true,
});
