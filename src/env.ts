import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseDuration, parseDurationList } from "@/lib/duration";
import { parseSigningKeys, type WebhookSigningKey } from "@/server/crypto/webhook-signing-key";

/**
 * Typed configuration. This is the only module that reads `process.env` (lint enforces it).
 * It is parsed lazily, on first use, because `next build` imports route modules without a runtime environment.
 */

// The Standard Webhooks schedule (≈ 3 days): now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h.
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = "0,5s,5m,30m,2h,5h,10h,14h,20h,24h";

const booleanString = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /**
   * A session (non-pooled) connection to the same primary, for what a pooler in transaction mode cannot carry:
   * migrations (a session-level advisory lock) and the webhook wake-ups' LISTEN. Unset: DATABASE_URL is used
   * (docs/operations.md, "Pooler and replica").
   */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /**
   * A streaming replica of the primary: lists, search, statistics, exports and reconciliation's reads go there
   * unless the same user wrote more recently than the replica has replayed (db/read-routing.ts). Unset: primary only.
   */
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  /** Sustained requests per second per API key (a burst of as many again is allowed every 10 s). */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(1).default(100),
  /** Sustained requests per second per client IP on unauthenticated routes (and failed authentications). */
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Sustained dashboard (tRPC) calls per second per signed-in user, merchant or staff (same burst). */
  RATE_LIMIT_PER_USER: z.coerce.number().int().min(1).default(20),
  /**
   * How many proxies in front of the app append to X-Forwarded-For. 0: none, the connection's peer is the client
   * and X-Forwarded-For (which a client can write) is ignored. N: the client is the address the outermost of N
   * proxies saw (clientIp in net/client-ip.ts).
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  WEBHOOK_WORKER: z.enum(["inline", "off"]).default("inline"),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE)
    .transform((text, ctx) => {
      try {
        const schedule = parseDurationList(text);
        if (schedule.length === 0) throw new Error("needs at least one attempt");
        return schedule;
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * How long after `expiresAt` an expired invoice still accepts payments, which then mark it paid with
   * `statusDetail: "paid_late"` (docs/invoices.md). A duration: 30m, 24h, 2d.
   */
  INVOICE_GRACE_PERIOD: z
    .string()
    .default("24h")
    .transform((text, ctx) => {
      try {
        return parseDuration(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * An endpoint that fails every attempt for this long is disabled (reason `failing`; docs/webhooks.md,
   * "Endpoint health"). A duration: 5d, 12h.
   */
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .default("5d")
    .transform((text, ctx) => {
      try {
        const ms = parseDuration(text);
        if (ms <= 0) throw new Error("must be longer than 0");
        return ms;
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** Events are kept this many days (at least 30), then pruned by the workers (docs/webhooks.md, "Event log"). */
  WEBHOOK_EVENT_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(30),
  /**
   * Where this service is reached from outside: invoices' `checkoutUrl` is `<PUBLIC_BASE_URL>/pay/<id>`. Unset:
   * `http://localhost:<PORT>`, the port actually served (`parseEnv`).
   */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
    .optional()
    .transform((url) => url?.replace(/\/+$/, "")),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanString.default(false),
  /**
   * The service's Ed25519 keys (`whsk_…`, separated by whitespace or commas, current first) for Standard Webhooks
   * `v1a` signatures beside the HMACs: each signs every webhook, so a rotation has an overlap (docs/webhooks.md).
   * Unset, the list is empty and none are sent. The public keys are served at /api/v1/webhook/signing-keys.
   */
  WEBHOOK_SIGNING_KEY: z
    .string()
    .optional()
    .transform((text, ctx): readonly WebhookSigningKey[] => {
      if (text === undefined || text.trim() === "") return [];
      try {
        return parseSigningKeys(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Bearer token of `GET /api/v1/metrics` (Prometheus; docs/operations.md), ≥ 32 characters. Unset: the route
   * answers 404 and nothing is measured. `METRICS_PORT` (workers only) serves the same text on its own port.
   */
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /**
   * The mail server password resets (and team invitations) are sent through: `smtp://user:pass@host:587`, or
   * `smtps://…` for TLS from the start. Unset: no mail is sent; a reset then tells the user an administrator must
   * help (docs/team-and-security.md, "Email").
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, message: "must be an smtp:// or smtps:// URL" }).optional(),
  /**
   * Whether support staff must sign in with a second factor (docs/team-and-security.md). Unset: `required` in
   * production, `optional` elsewhere. `optional` in production is for end-to-end tests of a production build only.
   */
  STAFF_SECOND_FACTOR: z.enum(["required", "optional"]).optional(),
  /** The sender of that mail: `Payments <no-reply@example.com>` or a bare address. */
  MAIL_FROM: z.string().min(3).max(320).default("no-reply@localhost"),
  /** OTLP/HTTP collector for traces (OpenTelemetry's own variable). Unset: no tracing SDK is started. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
});

export type Env = Omit<z.infer<typeof envSchema>, "AUTH_SECRET" | "PUBLIC_BASE_URL"> & { AUTH_SECRET: string; PUBLIC_BASE_URL: string };

export class InvalidEnvironmentError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      "Invalid configuration:\n" +
        issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join("\n"),
    );
    this.name = "InvalidEnvironmentError";
  }
}

/** Parses a given environment (tests pass their own); empty strings count as unset. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new InvalidEnvironmentError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "environment"),
        message: issue.message,
      })),
    );
  }
  // `next start -p 4000` serves port 4000 and sets PORT to it before the app reads its configuration, so the
  // default public address follows the server's real port, as the pages' own links (the browser's origin) do.
  const parsed = { ...result.data, PUBLIC_BASE_URL: result.data.PUBLIC_BASE_URL ?? `http://localhost:${result.data.PORT}` };
  // The replica and the direct connection belong to a server primary; without one they would be ignored silently.
  if (!parsed.DATABASE_URL) {
    const orphans = (["DATABASE_DIRECT_URL", "DATABASE_REPLICA_URL"] as const).filter((variable) => parsed[variable] !== undefined);
    if (orphans.length > 0) throw new InvalidEnvironmentError(orphans.map((variable) => ({ variable, message: "needs DATABASE_URL (the primary) to be set" })));
  }
  if (parsed.AUTH_SECRET) return { ...parsed, AUTH_SECRET: parsed.AUTH_SECRET };
  // A production deployment on a database server must be given its secret (every web process needs the
  // same one). On the embedded database everything lives in DATA_DIR anyway, so the generated secret is
  // kept there beside the data it protects, and `npm run build && npm start` works on a fresh clone.
  if (parsed.NODE_ENV === "production" && parsed.DATABASE_URL) {
    throw new InvalidEnvironmentError([
      {
        variable: "AUTH_SECRET",
        message: "is required in production with DATABASE_URL (at least 32 characters; e.g. `openssl rand -base64 32`)",
      },
    ]);
  }
  return { ...parsed, AUTH_SECRET: loadOrCreateLocalSecret(parsed.DATA_DIR) };
}

/** Outside production a missing AUTH_SECRET is generated once and kept in DATA_DIR, so sessions survive restarts. */
function loadOrCreateLocalSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return secret;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
