import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { checkWebhookUrl, type ResolvedAddress, type Resolver } from "./ssrf-guard";

/**
 * One webhook delivery attempt over HTTP. The target is re-checked by the SSRF guard on every attempt
 * (a host that was public at registration may point somewhere private today), and the connection goes to
 * exactly the addresses the guard checked: undici's `connect.lookup` answers from that list, so a second,
 * different DNS answer (rebinding) never reaches the socket. Redirects are not followed.
 *
 * Connections: without an `AgentPool`, an attempt opens its own connection and closes it afterwards. The
 * worker passes a pool, which keeps a keep-alive agent per (origin, checked addresses, CA, timeouts) for a few
 * seconds: the guard still runs on every attempt, and an attempt only reuses a connection whose agent was
 * made for exactly the addresses this attempt's check returned — a different answer gets a different agent.
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
  /** Keep-alive agents to reuse (the worker's); without one, the attempt uses a connection of its own. */
  agents?: AgentPool;
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
  const agentOptions: PinnedAgentOptions = {
    origin: new URL(check.url).origin,
    addresses: check.addresses,
    connectTimeoutMs: input.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    totalTimeoutMs,
    ca: input.ca,
  };
  const lease = input.agents ? input.agents.acquire(agentOptions) : oneShotAgent(agentOptions);
  const agent = lease.agent;
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
    await lease.release();
  }
}

export interface PinnedAgentOptions {
  origin: string;
  addresses: readonly ResolvedAddress[];
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  ca: string | undefined;
}

export interface AgentLease {
  agent: Agent;
  /** Hands the agent back (pool) or destroys it (one-shot). */
  release(): Promise<void>;
}

function pinnedAgent(options: PinnedAgentOptions, keepAliveMs: number | null): Agent {
  return new Agent({
    connect: {
      lookup: pinnedLookup(options.addresses),
      timeout: options.connectTimeoutMs,
      ...(options.ca ? { ca: options.ca } : {}),
    },
    // One-shot: one attempt, one connection, nothing kept alive. Pooled: idle sockets close after keepAliveMs.
    ...(keepAliveMs === null ? { pipelining: 0 } : { pipelining: 1, keepAliveTimeout: keepAliveMs, keepAliveMaxTimeout: keepAliveMs }),
    headersTimeout: options.totalTimeoutMs,
    bodyTimeout: options.totalTimeoutMs,
  });
}

function oneShotAgent(options: PinnedAgentOptions): AgentLease {
  const agent = pinnedAgent(options, null);
  // destroy, not close: a receiver that never answers must not keep the attempt alive.
  return { agent, release: () => agent.destroy().catch(() => {}) };
}

export interface AgentPoolOptions {
  /** An agent unused this long is closed (its sockets with it). Default 4 s, under the usual 5 s server keep-alive. */
  idleMs?: number;
  /** An agent this old takes no new attempts and closes once its last one ends. Default 30 s. */
  maxAgeMs?: number;
}

export interface AgentPool {
  acquire(options: PinnedAgentOptions): AgentLease;
  /** Agents open now (in use, idle, or retired with attempts still running); for tests. */
  readonly size: number;
  /** Closes every agent; call after the attempts using the pool have ended. */
  close(): Promise<void>;
}

interface PoolEntry {
  key: string;
  agent: Agent;
  createdAt: number;
  lastUsed: number;
  active: number;
  retired: boolean;
}

export const AGENT_IDLE_MS = 4_000;
export const AGENT_MAX_AGE_MS = 30_000;

/**
 * Keep-alive agents for the worker, one per (origin, checked addresses, CA, timeouts). An agent's
 * `connect.lookup` answers only with the addresses in its key, so a pooled socket only ever goes to addresses
 * the guard checked for the attempt using it. Agents are retired after `maxAgeMs` (no connection outlives an
 * old check for long) and closed when idle for `idleMs`.
 */
export function createAgentPool(options: AgentPoolOptions = {}): AgentPool {
  const idleMs = options.idleMs ?? AGENT_IDLE_MS;
  const maxAgeMs = options.maxAgeMs ?? AGENT_MAX_AGE_MS;
  const entries = new Map<string, PoolEntry>();
  const retiring = new Set<PoolEntry>();
  let closed = false;

  const shut = (entry: PoolEntry) => {
    retiring.delete(entry);
    entry.agent.close().catch(() => {});
  };
  const retire = (entry: PoolEntry) => {
    if (entry.retired) return;
    entry.retired = true;
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    retiring.add(entry);
    if (entry.active === 0) shut(entry);
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const entry of entries.values()) {
        if (now - entry.createdAt >= maxAgeMs || (entry.active === 0 && now - entry.lastUsed >= idleMs)) retire(entry);
      }
    },
    Math.max(50, Math.min(idleMs, maxAgeMs) / 4),
  );
  sweep.unref();

  return {
    acquire(agentOptions) {
      if (closed) return oneShotAgent(agentOptions);
      const key = poolKey(agentOptions);
      const now = Date.now();
      let entry = entries.get(key);
      if (entry && now - entry.createdAt >= maxAgeMs) {
        retire(entry);
        entry = undefined;
      }
      if (!entry) {
        entry = { key, agent: pinnedAgent(agentOptions, idleMs), createdAt: now, lastUsed: now, active: 0, retired: false };
        entries.set(key, entry);
      }
      const held = entry;
      held.active++;
      let released = false;
      return {
        agent: held.agent,
        release: async () => {
          if (released) return;
          released = true;
          held.active--;
          held.lastUsed = Date.now();
          if (held.retired && held.active === 0) shut(held);
        },
      };
    },
    get size() {
      return entries.size + retiring.size;
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      const all = [...entries.values(), ...retiring];
      entries.clear();
      retiring.clear();
      // destroy: by now no attempt uses them, and idle keep-alive sockets go at once.
      await Promise.all(all.map((entry) => entry.agent.destroy().catch(() => {})));
    },
  };
}

function poolKey(options: PinnedAgentOptions): string {
  const addresses = options.addresses.map((entry) => `${entry.family}/${entry.address}`).sort();
  return JSON.stringify([options.origin, addresses, options.connectTimeoutMs, options.totalTimeoutMs, options.ca ?? null]);
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

/** Maps a network failure to the error classes of docs/webhooks.md, "Delivery, retries and failure". */
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
