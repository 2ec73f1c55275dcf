import { collectProcessMetrics, httpRequestDuration, invoiceTransitions, metrics, rateLimitRefusals, refusedRequests, webhookAttempts, webhookLag } from "./registry";

/*
 * The one call each instrumented code path makes. Off (a no-op behind one boolean) until `enableMetrics`, which
 * a process calls when METRICS_TOKEN is set: a process nobody scrapes pays nothing (BENCHMARKS.md, case 11).
 */
const state = metrics.state;

export function enableMetrics(): void {
  state.enabled = true;
  collectProcessMetrics();
}

export function metricsEnabled(): boolean {
  return state.enabled;
}

/** One answered /api/v1 request; `route` is the declared template, or `unmatched` for an unknown path. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  if (state.enabled) httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
}

/** One recorded webhook attempt: its result, its error class and how long after it was due it was sent. */
export function observeWebhookAttempt(input: { result: string; errorClass: string | null; dueAt: Date; sentAt: Date; first: boolean }): void {
  if (!state.enabled) return;
  webhookAttempts.inc({ result: input.result, error_class: input.errorClass ?? "none" });
  webhookLag.observe({ attempt: input.first ? "first" : "retry" }, Math.max(0, input.sentAt.getTime() - input.dueAt.getTime()) / 1000);
}

/** One invoice status change written (counted with its transaction, which may still roll back: rare). */
export function observeInvoiceTransition(to: string): void {
  if (state.enabled) invoiceTransitions.inc({ to });
}

export function observeRateLimitRefusal(policy: string): void {
  if (state.enabled) rateLimitRefusals.inc({ policy });
}

/** One request answered before Next.js (http/refuse-before-next.ts): why, and the status it got. */
export function observeRefusedRequest(reason: string, status: number): void {
  if (state.enabled) refusedRequests.inc({ reason, status: String(status) });
}
