import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { checkWebhookUrl, type ResolvedAddress, type Resolver } from "./ssrf-guard";

/**
 * One webhook delivery attempt over HTTP. The target is re-checked by the SSRF guard on every attempt
 * (a host that was public at registration may point somewhere private today), and the connection goes to
 * exactly the addresses the guard checked: undici's `connect.lookup` answers from that list, so a second,
 * different DNS answer (rebinding) never reaches the socket. Redirects are not followed.
 */

export type ErrorClass = "dns" | "connect" | "tls" | "timeout" | "http" | "blocked";

export const CONNECT_TIMEOUT_MS = 5_000;
export const TOTAL_TIMEOUT_MS = 15_000;
export const MAX_RECORDED_BODY_BYTES = 16 * 1024;
export const USER_AGENT = "merchant-payments-webhooks/1";

export interface AttemptOutcome {
  /** 2xx: delivered. */
  ok: boolean;
  statusCode: number | null;
  errorClass: ErrorClass | null;
  /** Why it failed, for the merchant (never contains our secrets: only the target's answer or a network error). */
  errorMessage: string | null;
  latencyMs: number;
  responseHeaders: Record<string, string> | null;
  /** The first 16 KiB of the response body, as text. */
  responseBody: string | null;
}

export interface SendInput {
  url: string;
  /** Signature headers and anything else to send; content-type and user-agent are added. */
  headers: Record<string, string>;
  body: string;
  allowPrivateTargets: boolean;
  resolve?: Resolver;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  /** Extra trusted CA certificates (PEM) — tests with a self-signed receiver only. */
  ca?: string;
}

export async function sendWebhook(input: SendInput): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const check = await checkWebhookUrl(input.url, {
    allowPrivateTargets: input.allowPrivateTargets,
    resolve: input.resolve,
    resolveTimeoutMs: input.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
  });
  if (!check.ok) {
    return failure(check.reason === "unresolvable_host" ? "dns" : "blocked", check.message, elapsed());
  }

  const totalTimeoutMs = input.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const agent = new Agent({
    connect: {
      lookup: pinnedLookup(check.addresses),
      timeout: input.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      ...(input.ca ? { ca: input.ca } : {}),
    },
    // One attempt, one connection: nothing to keep alive, and no pooled socket outlives the pinning.
    pipelining: 0,
    headersTimeout: totalTimeoutMs,
    bodyTimeout: totalTimeoutMs,
  });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new TotalTimeoutError(totalTimeoutMs)), totalTimeoutMs);
  try {
    const response = await request(check.url, {
      method: "POST",
      dispatcher: agent,
      signal: abort.signal,
      headers: { ...input.headers, "content-type": "application/json", "user-agent": USER_AGENT },
      body: input.body,
    });
    const responseBody = await readCapped(response.body, MAX_RECORDED_BODY_BYTES);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return {
      ok,
      statusCode: response.statusCode,
      errorClass: ok ? null : "http",
      errorMessage: ok ? null : `The endpoint answered HTTP ${response.statusCode}.`,
      latencyMs: elapsed(),
      responseHeaders: flattenHeaders(response.headers),
      responseBody,
    };
  } catch (error) {
    const errorClass = classifyError(error, abort.signal);
    return failure(errorClass, describeError(errorClass, error), elapsed());
  } finally {
    clearTimeout(timer);
    // destroy, not close: a receiver that never answers must not keep the attempt alive.
    await agent.destroy().catch(() => {});
  }
}

/** A `lookup` for net/tls.connect that only ever answers with the checked addresses. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    if (usable.length === 0) {
      const error = Object.assign(new Error("No checked address for this family"), { code: "ENOTFOUND" });
      callback(error, "", 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

class TotalTimeoutError extends Error {
  constructor(ms: number) {
    super(`No complete answer within ${ms} ms.`);
    this.name = "TotalTimeoutError";
  }
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH$)/;

/** Maps a network failure to the error classes of DESIGN §5. */
export function classifyError(error: unknown, signal?: AbortSignal): ErrorClass {
  if (signal?.aborted) return "timeout";
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (TIMEOUT_CODES.has(code)) return "timeout";
      if (DNS_CODES.has(code)) return "dns";
      if (TLS_CODE.test(code)) return "tls";
    }
    current = (current as { cause?: unknown }).cause;
  }
  return "connect";
}

function describeError(errorClass: ErrorClass, error: unknown): string {
  if (errorClass === "timeout") return `Timed out: ${error instanceof Error ? error.message : String(error)}`;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  return (typeof code === "string" ? `${code}: ${message}` : message).slice(0, 500);
}

function failure(errorClass: ErrorClass, errorMessage: string, latencyMs: number): AttemptOutcome {
  return { ok: false, statusCode: null, errorClass, errorMessage, latencyMs, responseHeaders: null, responseBody: null };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** Reads at most `limit` bytes of a body and drops the rest (a receiver may answer with gigabytes). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  // PostgreSQL text cannot hold NUL; a binary answer is recorded with replacement characters instead.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit)).replaceAll("\u0000", "\uFFFD");
}
