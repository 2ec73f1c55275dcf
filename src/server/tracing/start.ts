import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider, type SpanProcessor } from "@opentelemetry/sdk-trace";
import { PgPreparedQuery } from "drizzle-orm/pg-core";
import { useTracer, withSpan } from "./span";

const TRACER_NAME = "merchant-payment-service";

/**
 * Starts the OpenTelemetry SDK for this process: a tracer provider with the given processor (OTLP over HTTP in
 * production: `otlpProcessor`), the AsyncLocalStorage context manager (so spans nest across awaits), and the SQL
 * spans. Called only when OTEL_EXPORTER_OTLP_ENDPOINT is set (instrumentation-node.ts, scripts/worker.ts); Next.js's
 * own request spans then report to the same provider. Returns the way to flush and stop it.
 */
export function startTracing(input: { serviceName: string; processor: SpanProcessor }): () => Promise<void> {
  const provider = new TracerProvider({ resource: resourceFromAttributes({ "service.name": input.serviceName }), spanProcessors: [input.processor] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  useTracer(provider.getTracer(TRACER_NAME));
  traceSqlStatements();
  return async () => {
    useTracer(null);
    await provider.shutdown();
    trace.disable();
    context.disable();
  };
}

/** OTLP/HTTP export, batched; the exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and _HEADERS) itself. */
export async function otlpProcessor(): Promise<SpanProcessor> {
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  return new BatchSpanProcessor({ exporter: new OTLPTraceExporter() });
}

type QueryWithCache = (this: unknown, queryString: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown>;
let sqlTraced = false;

/*
 * Every statement drizzle runs, on either driver, goes through PgPreparedQuery.queryWithCache: one span each,
 * with the statement's text (placeholders, never the parameters: they can hold key hashes and sealed secrets).
 * drizzle-orm's own tracing hooks are inert in this release, so the method is wrapped, once, and only here.
 */
function traceSqlStatements(): void {
  if (sqlTraced) return;
  sqlTraced = true;
  const prototype = PgPreparedQuery.prototype as unknown as { queryWithCache: QueryWithCache };
  const original = prototype.queryWithCache;
  prototype.queryWithCache = function (queryString, params, query) {
    return withSpan("db.query", { kind: "client", attributes: { "db.system.name": "postgresql", "db.query.text": queryString } }, () =>
      original.call(this, queryString, params, query),
    );
  };
}
