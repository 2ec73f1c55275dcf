import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time, not bundled.
  // drizzle-orm: one copy for the whole process. Bundled, the instrumentation layer (which opens the database)
  // and the route layer (which holds the tables) each got their own, so drizzle's `instanceof` checks between
  // a table's columns and the session failed into a slow prototype walk on every cell it mapped and every
  // chunk it built: the builder's "cost" measured in BENCHMARKS.md.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pino", "drizzle-orm"],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // `npm test` type-checks the whole project first (`npm run typecheck`, the same files and tsconfig) and then
  // sets NEXT_BUILD_TYPECHECKED for the build the end-to-end tests drive (scripts/test.mjs), which would otherwise
  // check them a second time.
  // Any other `next build` checks its types as usual.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_TYPECHECKED === "1" },
};

export default nextConfig;
