import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type Link, type Span, type Tracer } from "@opentelemetry/api";

/*
 * The spans the service makes (docs/operations.md, "Traces"), through the OpenTelemetry API. Until a process
 * starts the SDK (tracing/start.ts, only when OTEL_EXPORTER_OTLP_ENDPOINT is set) there is no tracer here and
 * every helper is one null check: no span objects, no context switches, nothing exported.
 */
// On globalThis: Next.js bundles the instrumentation hook (which starts the SDK) apart from the routes (which make
// the spans), each with its own copy of this module.
const shared = ((globalThis as typeof globalThis & { __mpsTracing?: { tracer: Tracer | null } }).__mpsTracing ??= { tracer: null });

/** Set by tracing/start.ts once the SDK is registered (and by tests around an in-memory exporter). */
export function useTracer(next: Tracer | null): void {
  shared.tracer = next;
}

export function tracingEnabled(): boolean {
  return shared.tracer !== null;
}

export interface SpanInput {
  attributes?: Attributes;
  kind?: "server" | "client" | "internal" | "consumer";
  /** A new trace (the webhook attempt), linked to `links` instead of continuing the current one. */
  root?: boolean;
  links?: Link[];
}

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL, consumer: SpanKind.CONSUMER } as const;

/** Runs `fn` inside a span named `name` (the active span for what it calls); errors mark the span and rethrow. */
export function withSpan<T>(name: string, input: SpanInput, fn: (span: Span | null) => Promise<T>): Promise<T> {
  const tracer = shared.tracer;
  if (!tracer) return fn(null);
  const options = { attributes: input.attributes, kind: KINDS[input.kind ?? "internal"], root: input.root, links: input.links };
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** W3C `traceparent` of a span, stored with an outbox row so its attempts can link back to the request. */
export function traceParentOf(span: Span | null): string | null {
  if (!span) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & TraceFlags.SAMPLED ? 1 : 0).toString(16).padStart(2, "0")}`;
}

/** The link to the span a stored `traceparent` names (none when it is absent or malformed). */
export function linksTo(traceParent: string | null | undefined): Link[] {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceParent ?? "");
  if (!match) return [];
  return [{ context: { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16), isRemote: true } }];
}
