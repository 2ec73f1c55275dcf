/** Harness settings, from the environment (bench/** is not the app: it reads process.env directly). */
const quick = ["1", "true"].includes(process.env.BENCH_QUICK ?? "");

export const config = {
  quick,
  /** Seconds per measured run / warm-up run. */
  duration: Number(process.env.BENCH_DURATION ?? (quick ? 2 : 10)),
  warmup: Number(process.env.BENCH_WARMUP ?? (quick ? 1 : 3)),
  /** Interleaved repetitions (A B A B …) per comparison; the median of these is reported. */
  reps: Number(process.env.BENCH_REPS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  /** Case 3. */
  soakSeconds: Number(process.env.BENCH_SOAK_SECONDS ?? (quick ? 6 : 60)),
  soakConnections: Number(process.env.BENCH_SOAK_CONNECTIONS ?? 128),
  /** Seconds of the same mix before the measured run (not counted). */
  soakWarmupSeconds: Number(process.env.BENCH_SOAK_WARMUP ?? (quick ? 2 : 10)),
  /** Case 4: payments of the one merchant, and the depth whose page is compared with page 1. */
  pagingRows: Number(process.env.BENCH_PAGING_ROWS ?? (quick ? 20_000 : 1_000_000)),
  pagingDepth: Number(process.env.BENCH_PAGING_DEPTH ?? (quick ? 18_000 : 900_000)),
  /** Case 5. */
  webhookDeliveries: Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? (quick ? 500 : 10_000)),
  webhookConcurrency: Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 32),
  lagRate: Number(process.env.BENCH_LAG_RATE ?? 500),
  lagSeconds: Number(process.env.BENCH_LAG_SECONDS ?? (quick ? 3 : 20)),
  /** Which cases to run: comma-separated numbers (1–13), default all. */
  cases: (process.env.BENCH_CASES ?? "1,2,3,4,5,6,7,8,9,10,11,12,13").split(",").map((item) => item.trim()),
  /** PostgreSQL server (a database is created for the run and dropped after it). */
  adminUrl: process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  /** Reuse an existing `.next` build instead of running `next build`. */
  skipBuild: ["1", "true"].includes(process.env.BENCH_SKIP_BUILD ?? ""),
  basePort: Number(process.env.BENCH_BASE_PORT ?? 3400),
  /** The app's per-request log level during the runs (logs go to a file under bench/results/). */
  logLevel: process.env.BENCH_LOG_LEVEL ?? "info",
};

export const AUTH_SECRET = "bench-auth-secret-0123456789abcdefghijklmnop";
