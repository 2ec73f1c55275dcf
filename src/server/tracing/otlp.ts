/**
 * Starts tracing with OTLP/HTTP export to OTEL_EXPORTER_OTLP_ENDPOINT (read by the exporter, with
 * OTEL_EXPORTER_OTLP_HEADERS). The SDK is imported here, on demand: a process without the variable never loads it.
 * Resolves with the way to flush the last spans and stop.
 */
export async function startOtlpTracing(serviceName: string): Promise<() => Promise<void>> {
  const { otlpProcessor, startTracing } = await import("./start");
  return startTracing({ serviceName, processor: await otlpProcessor() });
}
