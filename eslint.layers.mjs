import boundaries from "eslint-plugin-boundaries";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";

/*
 * The layers of src/, from the outside in (src/server/README.md explains them; docs/decisions.md, "Layers the linter
 * enforces"). A file may import its own layer and the ones MAY_IMPORT lists for it, all below it; never one above.
 * Type-only imports count too: a type is a dependency of the design, if not of the bundle.
 */
const LAYERS = {
  // Start the process: open the runtime, start the background work. May import anything.
  entry: ["src/instrumentation.ts", "src/instrumentation-node.ts", "src/proxy.ts"],
  // Adapters, the outer ring. Pages and components (the dashboard's tRPC client lives in lib/trpc by convention but
  // binds React to the router), and the checkout page's renderer.
  ui: ["src/app/**", "src/components/**", "src/lib/trpc/**", "src/server/checkout/**"],
  // REST: route declarations, the pipeline, the OpenAPI document, the metrics scrape.
  rest: ["src/server/http/**", "src/server/openapi/**"],
  trpc: ["src/server/trpc/**"],
  // What every adapter asks of a request: who sends it (dashboard sessions) and how often (rate limits).
  request: ["src/server/auth/**", "src/server/rate-limit/**"],
  // The scheduler of the periodic jobs and the delivery worker's start-up: adapters driven by timers, not requests.
  background: ["src/server/background/**"],
  // The domain: services/<entity>/<verb>.ts.
  services: ["src/server/services/**"],
  // The webhook delivery engine: claim, send, record, breaker, health. It never calls a service: what it needs of
  // one is handed to it (background/start.ts).
  engine: ["src/server/webhooks/**"],
  // Configuration, database and logger of one process.
  runtime: ["src/server/runtime.ts"],
  // Schema, connection, transactions, and every hand-written SQL statement (db/sql/).
  db: ["src/server/db/**"],
  // No domain and no database: configuration, logging, metrics, tracing, cryptography, key parsing, client addresses.
  platform: [
    "src/env.ts",
    "src/server/log.ts",
    "src/server/process-wide.ts",
    "src/server/log-error.ts",
    "src/server/metrics/**",
    "src/server/tracing/**",
    "src/server/crypto/**",
    "src/server/keys/**",
    "src/server/net/**",
    // The SMTP transport (nodemailer); services/email/send-mail.ts is the service other features call.
    "src/server/email/**",
  ],
  // Pure helpers; lib/payment-methods: the payment methods' catalogue, address checksums, payment URIs and the EPC QR.
  lib: ["src/lib/*.ts", "src/lib/payment-methods/**"],
};

const FOR_ADAPTERS = ["request", "services", "runtime", "platform", "lib"];
const BELOW_SERVICES = ["engine", "runtime", "db", "platform", "lib"];

/** What each layer may import besides itself. REST and tRPC do not import each other. */
const MAY_IMPORT = {
  entry: Object.keys(LAYERS),
  ui: ["rest", "trpc", ...FOR_ADAPTERS],
  rest: FOR_ADAPTERS,
  trpc: FOR_ADAPTERS,
  request: ["services", "runtime", "platform", "lib"],
  // Only the background work starts the engine (the delivery worker).
  background: ["services", ...BELOW_SERVICES],
  services: BELOW_SERVICES,
  engine: ["runtime", "db", "platform", "lib"],
  runtime: ["db", "platform", "lib"],
  db: ["platform", "lib"],
  platform: ["lib"],
  lib: [],
};

const typescript = { alwaysTryTypes: true, project: "tsconfig.json" };

export const layerRules = [
  {
    files: ["src/**/*.{ts,tsx}"],
    // Tests beside the code may import across layers to set up what they test.
    ignores: ["src/**/*.test.ts"],
    plugins: { boundaries, "import-x": importX },
    settings: {
      "boundaries/files": Object.entries(LAYERS).map(([category, pattern]) => ({ category, pattern })),
      "boundaries/include": ["src/**/*"],
      "import/resolver": { typescript },
      "import-x/resolver-next": [createTypeScriptImportResolver(typescript)],
      // How import-x reads the files it follows (as its flat "typescript" config sets them).
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          message: "{{from.file.categories}} may not import {{to.file.categories}}: the layers are in eslint.layers.mjs and src/server/README.md.",
          policies: Object.entries(MAY_IMPORT).map(([layer, below]) => ({
            from: { file: { categories: layer } },
            allow: { to: { file: { categories: { anyOf: [layer, ...below] } } } },
          })),
        },
      ],
      // Every file of src/ is in a layer: a new folder is placed above, deliberately.
      "boundaries/no-unknown-files": "error",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    // Adapters call services, never the database driver or the query builder.
    files: ["src/app/**/*.{ts,tsx}", "src/components/**/*.{ts,tsx}", "src/server/{http,trpc,openapi,checkout,auth,rate-limit}/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["drizzle-orm", "drizzle-orm/*", "pg", "pg-*", "@electric-sql/*"], message: "Call a service verb instead of the database." },
          ],
        },
      ],
    },
  },
  {
    // Hand-written SQL statements live in src/server/db/sql/: a change of driver or schema finds every one of them
    // there. Elsewhere drizzle's query builder writes the statements; `sql` fragments inside them are fine.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/server/db/sql/**", "src/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='execute']:matches([callee.object.name=/^(db|tx)$/], [callee.object.property.name=/^(db|tx)$/])",
          message: "Raw statements run in src/server/db/sql/: call a function there, or use drizzle's query builder.",
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql'] > TemplateLiteral > TemplateElement:first-child[value.raw=/^\\s*(select|insert|update|delete|with|merge|lock|truncate|copy|call)\\s/i]",
          message: "A whole SQL statement belongs in src/server/db/sql/ (fragments inside a drizzle query are fine here).",
        },
      ],
    },
  },
];
