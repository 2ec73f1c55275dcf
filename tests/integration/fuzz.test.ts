import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, matchRoute } from "../../src/server/http/dispatch";
import type { AnyRoute } from "../../src/server/http/route";
import { routes } from "../../src/server/http/routes";
import { documentedErrorCodes, problemSchema } from "../../src/server/openapi/problem";
import { ERROR_CODES, type ErrorCode } from "../../src/server/services/error-codes";
import { testClient } from "../support/client";
import { corpusFor } from "../support/fuzz-corpus";
import { fuzzRequest, toRequest, type FuzzContext, type FuzzRequest } from "../support/fuzz-requests";
import { registerTestMerchant } from "../support/merchants";
import { rowCounter } from "../support/row-counts";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// Fixed seed and run count: `npm test` replays the same requests every time. For a deeper hunt, run with
// FUZZ_SEED=<n> FUZZ_RUNS=<n>; a failure prints the seed and the shrunk request to replay it.
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

let runtime: TestRuntime;
let ctx: FuzzContext;
let countRows: () => Promise<Record<string, number>>;

beforeAll(async () => {
  // Limits high enough that validation, not the rate limiter, answers the junk (429 stays allowed).
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_KEY: "1000000", RATE_LIMIT_PER_IP: "1000000" } });
  const merchant = await registerTestMerchant(testClient(runtime));
  ctx = { apiKey: merchant.apiKey, knownIds: [merchant.merchant.id] };
  countRows = await rowCounter(runtime.database.db);
});
afterAll(() => runtime.close());

const routesWithoutOwnLimits: AnyRoute[] = routes.map((route) => ({ ...route, rateLimit: undefined }));

// Row counts as of the last refused request that passed its checks; unknown after anything else.
let knownCounts: Record<string, number> | undefined;

/**
 * Sends one junk request and checks what every answer must be: never a 5xx; an error is problem+json with
 * a catalogued code that the OpenAPI document lists for that operation, and leaves every table's row
 * count as it was; a success is one the route declares, with a body matching its schema.
 */
async function sendAndCheck(fuzz: FuzzRequest): Promise<void> {
  const rowsBefore = knownCounts ?? (await countRows());
  knownCounts = undefined;
  const request = toRequest(fuzz);
  // A case that must reach body parsing goes past the route's own abuse limit (register: 10 an hour per IP,
  // which the rest of the corpus spends), never past authentication or the default limit.
  const table = fuzz.expected ? routesWithoutOwnLimits : routes;
  const match = matchRoute(table, request.method, new URL(request.url).pathname);
  const response = await dispatch(runtime, table, request);
  // A streamed success (server-sent events) stays open: its first bytes, then the client goes.
  const streamed = match.kind === "route" && response.ok ? match.route.responses[response.status]?.mediaType : undefined;
  const text = streamed ? await firstChunk(response) : await response.text();
  const where = `${fuzz.method} ${clip(fuzz.path)}?${clip(fuzz.query)} ${clip(describeBody(fuzz))} → ${response.status} ${clip(text)}`;

  expect(response.status, `${where}\n${lastUnhandledError()}`).toBeLessThan(500);
  expect(response.headers.get("x-request-id"), where).toMatch(/^req_/);
  if (fuzz.expected) checkExpected(fuzz.expected, text, where);
  if (response.status >= 400) {
    expect(response.headers.get("content-type"), where).toBe("application/problem+json");
    const problem = problemSchema.parse(JSON.parse(text));
    expect(ERROR_CODES[problem.code].status, where).toBe(response.status);
    const documented: ErrorCode[] =
      match.kind === "route" ? documentedErrorCodes(match.route) : match.kind === "options" ? [] : [match.kind];
    expect(documented, `${where}: code not documented for this operation`).toContain(problem.code);
    // A final refusal under an Idempotency-Key is stored so that a retry replays it (Stripe's semantics):
    // that bookkeeping row is allowed; nothing else is.
    const bookkeeping = "idempotency-key" in fuzz.headers ? ["idempotency_keys"] : [];
    const rowsAfter = await countRows();
    const changed = changedTables(rowsBefore, rowsAfter).filter((table) => !bookkeeping.includes(table));
    expect(changed, `${where}: a refused request wrote rows (${JSON.stringify(rowsBefore)})`).toEqual([]);
    knownCounts = rowsAfter;
    return;
  }
  expect(match.kind, where).toBe("route");
  const declared = match.kind === "route" ? match.route.responses[response.status] : undefined;
  expect(declared, `${where}: status not declared`).toBeDefined();
  if (declared?.mediaType) expect(response.headers.get("content-type"), where).toContain(declared.mediaType);
  else if (declared?.schema) expect(declared.schema.safeParse(JSON.parse(text)).success, where).toBe(true);
}

async function firstChunk(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

function checkExpected(expected: NonNullable<FuzzRequest["expected"]>, text: string, where: string) {
  const problem = text ? (JSON.parse(text) as { code?: string; errors?: { path: string }[] }) : {};
  if ("notCode" in expected) {
    expect(problem.code, where).not.toBe(expected.notCode);
    return;
  }
  expect(problem.code, where).toBe(expected.code);
  if (expected.field) expect(problem.errors?.map((error) => error.path), where).toContain(expected.field);
}

function changedTables(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after).filter((table) => after[table] !== before[table]);
}

function describeBody(fuzz: FuzzRequest): string {
  const body = typeof fuzz.body === "string" ? fuzz.body : fuzz.body ? `bytes ${Buffer.from(fuzz.body).toString("hex")}` : "";
  return `[${fuzz.headers["content-type"] ?? "no content-type"}] ${body}`;
}

/** The cause the pipeline logged for a 500 (never sent to the client), to say what broke. */
function lastUnhandledError(): string {
  const line = runtime.logs.findLast((entry) => entry.includes("unhandled error"));
  return line ? clip(line) : "";
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}

/** A per-route seed, so adding a route does not change the requests every other route gets. */
function seedFor(route: AnyRoute): number {
  let hash = SEED;
  for (const char of route.operationId) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))("fuzz %s", (_name, route) => {
  // Up to two minutes: the settlement upload's corpus sends files of several megabytes, case after case, and
  // takes about 30 s on two busy cores; every case is still sent and checked.
  it("survives every case of the fixed corpus", { timeout: 120_000 }, async () => {
    for (const fuzz of corpusFor(route, ctx)) await sendAndCheck(fuzz);
  });

  it(`survives ${RUNS} random junk requests (seeded)`, async () => {
    await fc.assert(
      fc.asyncProperty(fuzzRequest(route, ctx), (fuzz) => sendAndCheck(fuzz)),
      { seed: seedFor(route), numRuns: RUNS },
    );
  });
});
