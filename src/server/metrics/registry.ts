import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/*
 * Every metric of the service, in one registry (docs/operations.md lists them with their alerts). Counters and
 * histograms are moved by the code paths that do the work (observe.ts); the gauges of the queue, the
 * breakers and the pool are read at scrape time (scrape.ts). Labels are bounded: a route label is the declared
 * template (`/payment/{id}`), never the raw path, and the other labels are fixed enums.
 */
function createMetrics() {
  const registry = new Registry();

  /** Latency of each /api/v1 request; its `_count` is the request counter by route, method and status. */
  const httpRequestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "REST requests under /api/v1 by declared route template, method and status: latency (and, as _count, the number of requests).",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  const webhookAttempts = new Counter({
    name: "webhook_attempts_total",
    help: "Webhook delivery attempts by what became of the delivery (delivered, pending: retry scheduled, failed: given up, lease_lost) and the attempt's error class (none when it succeeded).",
    labelNames: ["result", "error_class"] as const,
    registers: [registry],
  });

  const webhookLag = new Histogram({
    name: "webhook_delivery_lag_seconds",
    help: "From when a delivery became due (its commit, for a first attempt) to when its attempt was sent.",
    labelNames: ["attempt"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });

  const invoiceTransitions = new Counter({
    name: "invoice_transitions_total",
    help: "Invoice status changes written, by the status entered (open on creation).",
    labelNames: ["to"] as const,
    registers: [registry],
  });

  const rateLimitRefusals = new Counter({
    name: "rate_limit_refusals_total",
    help: "Requests refused with 429, by the rate-limit policy that refused them.",
    labelNames: ["policy"] as const,
    registers: [registry],
  });

  const refusedRequests = new Counter({
    name: "http_refused_requests_total",
    help: "Requests answered at the HTTP server before Next.js (any path): by why (method, path_encoding, two_authorizations, cross_origin_post) and the status answered (429 once the client address is over its budget).",
    labelNames: ["reason", "status"] as const,
    registers: [registry],
  });

  const webhookDue = new Gauge({
    name: "webhook_deliveries_due",
    help: "Pending webhook deliveries whose time has come (the queue depth), at scrape time; the same in every process.",
    registers: [registry],
  });

  const webhookInFlight = new Gauge({
    name: "webhook_deliveries_in_flight",
    help: "Webhook deliveries claimed by a worker (status delivering), at scrape time; the same in every process.",
    registers: [registry],
  });

  const webhookOldestDue = new Gauge({
    name: "webhook_oldest_due_age_seconds",
    help: "How long the oldest due delivery has been waiting (0 when none is due), at scrape time.",
    registers: [registry],
  });

  const breakersOpen = new Gauge({
    name: "webhook_endpoint_breakers_open",
    help: "Webhook endpoints whose circuit breaker is open now (nothing of theirs is claimed), at scrape time.",
    registers: [registry],
  });

  const poolConnections = new Gauge({
    name: "db_pool_connections",
    help: "This process's PostgreSQL connections by state (in_use: running a statement, held by a transaction or connecting; idle) and its configured maximum (max). Server database only.",
    labelNames: ["state"] as const,
    registers: [registry],
  });

  const poolWaiting = new Gauge({
    name: "db_pool_waiting_queries",
    help: "Queries of this process waiting for a free PostgreSQL connection. Server database only.",
    registers: [registry],
  });
  return { registry, httpRequestDuration, webhookAttempts, webhookLag, invoiceTransitions, rateLimitRefusals, refusedRequests, webhookDue, webhookInFlight, webhookOldestDue, breakersOpen, poolConnections, poolWaiting, state: { enabled: false, processMetrics: false } };
}

/*
 * One set per process, on globalThis: Next.js bundles the instrumentation hook and each route separately, and
 * each bundle has its own copy of this module. Without this, the runtime would switch on a registry that the
 * routes never record into, and the scrape would read a third.
 */
const globalRef = globalThis as typeof globalThis & { __mpsMetrics?: ReturnType<typeof createMetrics> };
export const metrics = (globalRef.__mpsMetrics ??= createMetrics());
export const { registry, httpRequestDuration, webhookAttempts, webhookLag, invoiceTransitions, rateLimitRefusals, refusedRequests, webhookDue, webhookInFlight, webhookOldestDue, breakersOpen, poolConnections, poolWaiting } = metrics;

/** Node's own process metrics (CPU, memory, event loop lag, GC), once per process. */
export function collectProcessMetrics(): void {
  if (metrics.state.processMetrics) return;
  metrics.state.processMetrics = true;
  collectDefaultMetrics({ register: registry });
}
