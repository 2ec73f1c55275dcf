import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/server/crypto/api-key-format";
import type { AnyRoute } from "../../src/server/http/route";
import { createApiKey } from "../../src/server/services/api-keys/create";
import { revokeApiKey } from "../../src/server/services/api-keys/revoke";
import { rollApiKey } from "../../src/server/services/api-keys/roll";
import { SCOPE_REFUSAL_ACTION } from "../../src/server/services/audit/record-scope-refusal";
import type { ApiResponse, RequestOptions, TestClient } from "./client";
import { rowsOf } from "./dump";
import { merchantUser, serviceContext } from "./context";
import type { TestMerchant } from "./merchants";
import type { TestRuntime } from "./runtime";
import { scopeOf, scopesGranting, scopesLacking, snapshotTables, withRestrictedKey } from "./restricted-keys";

/**
 * The shared security suite (after Unkey's `runCommonRouteTests`): every route with `auth: "api_key"` in
 * the route table must have a fixture in tests/support/security-fixtures.ts, and then gets checked for
 * missing, malformed, mistyped, unknown, revoked and expired keys, for tenant isolation, for mode isolation
 * (docs/test-mode.md): what one mode's key made is invisible to the other mode's key of the same merchant, and for
 * restricted keys' scopes (docs/team-and-security.md): from the route's declared `permission`, a restricted key
 * lacking it gets 403 `insufficient_scope` and changes nothing, one granted just it is served.
 */

export interface SecurityContext {
  runtime: TestRuntime;
  api: TestClient;
  /** Makes the valid request: the route must answer it with a 2xx. */
  owner: TestMerchant;
  /** Another merchant: its key must not reach anything of `owner`'s. */
  other: TestMerchant;
  /** An `sk_test_` key of each merchant, by merchant id. */
  testKeys: Record<string, string>;
}

export type KeyMode = "live" | "test";

/** The merchant's key of that mode. */
export function keyOf(ctx: SecurityContext, merchant: TestMerchant, mode: KeyMode): string {
  if (mode === "live") return merchant.apiKey;
  const key = ctx.testKeys[merchant.merchant.id];
  if (!key) throw new Error(`no test key for ${merchant.merchant.id}: add one to the security context`);
  return key;
}

/**
 * How a route meets test mode (docs/test-mode.md), checked with the owner's key of the other mode:
 * - `data` (the default): the route makes or reads one mode's data; the fixture's request is made with the owner's
 *   live key. The owner's test key gets 404 for a `resource`, never sees a `list`'s live rows (nor the live key
 *   its test rows), and is answered 2xx for an `action` (it works in test mode too).
 * - `test-only`: simulations (`POST /test/…`); the request is made with the owner's test key, the live key gets
 *   403 test_mode_only.
 * - `merchant`: reads the merchant itself (profile, statistics): both keys get a 2xx.
 * - `settings`: changes account-wide settings that serve live traffic: the test key gets 403 forbidden.
 */
export type ModeBehaviour = "data" | "test-only" | "merchant" | "settings";

/** What the suite sends, without the key (the suite chooses the key). */
export interface FixtureRequest {
  /** Relative to /api/v1, with real ids filled in: `/payment/pay_01…`. */
  path: string;
  body?: unknown;
  /** A non-JSON body sent as is (a route's `streamedBody`); set its content-type in `headers`. */
  rawBody?: string;
  query?: RequestOptions["query"];
  headers?: Record<string, string>;
}

type Awaitable<T> = T | Promise<T>;

export type SecurityFixture =
  /**
   * The path names one of the owner's resources (`/payment/{id}`): build it, creating the resource
   * through the API or a service if needed. Another merchant's key on the same request → 404 not_found.
   */
  | { kind: "resource"; mode?: ModeBehaviour; request: (ctx: SecurityContext) => Awaitable<FixtureRequest> }
  /**
   * A list answering `{ data: [{ id, … }] }`: `seed` creates one row for the given merchant in the given mode and
   * returns its id; each merchant's list must show its own row and never the other's, and each mode's list its
   * own mode's row only.
   */
  | {
      kind: "list";
      mode?: "data";
      seed: (ctx: SecurityContext, merchant: TestMerchant, mode: KeyMode) => Awaitable<string>;
      request: (ctx: SecurityContext) => Awaitable<FixtureRequest>;
    }
  /** Acts on the caller's own account with no id in the path (`POST /payment/confirm`): key checks only. */
  | { kind: "action"; mode?: ModeBehaviour; request: (ctx: SecurityContext) => Awaitable<FixtureRequest> };

/** The fixture-table key of a route: `"GET /payment/{id}"`. */
export const routeKey = (route: Pick<AnyRoute, "method" | "path">) => `${route.method} ${route.path}`;

/** Authenticated routes that have no fixture, and fixtures that name no authenticated route. */
export function coverageGaps(routes: readonly AnyRoute[], fixtures: Record<string, SecurityFixture>) {
  const authenticated = routes.filter((route) => route.auth === "api_key").map(routeKey);
  return {
    uncovered: authenticated.filter((key) => !(key in fixtures)),
    stale: Object.keys(fixtures).filter((key) => !authenticated.includes(key)),
  };
}

export function runSecuritySuite(options: {
  routes: readonly AnyRoute[];
  fixtures: Record<string, SecurityFixture>;
  context: () => SecurityContext;
}) {
  const { routes, fixtures } = options;

  it("has a fixture for every authenticated route (add yours to tests/support/security-fixtures.ts)", () => {
    expect(coverageGaps(routes, fixtures)).toEqual({ uncovered: [], stale: [] });
  });

  for (const route of routes.filter((candidate) => candidate.auth === "api_key")) {
    const fixture = fixtures[routeKey(route)];
    if (fixture) describeRoute(route, fixture, options.context);
  }
}

function describeRoute(route: AnyRoute, fixture: SecurityFixture, context: () => SecurityContext) {
  describe(routeKey(route), () => {
    let request: FixtureRequest;
    // Each route's requests come from their own address: failed authentications count per IP.
    const ip = `198.19.${randomInt(256)}.${randomInt(1, 255)}`;
    const send = (key: string | undefined, extra: Partial<FixtureRequest> = {}) => {
      const { api } = context();
      const merged = { ...request, ...extra };
      return api.request(route.method, merged.path, {
        key,
        body: merged.body,
        rawBody: merged.rawBody,
        query: merged.query,
        headers: { "x-forwarded-for": ip, ...merged.headers },
      });
    };

    const mode = fixture.mode ?? "data";
    // The mode the valid request is made in, and the other one.
    const own: KeyMode = mode === "test-only" ? "test" : "live";
    const otherMode: KeyMode = own === "live" ? "test" : "live";

    beforeAll(async () => {
      request = await fixture.request(context());
    });

    // First, while the shared request's resource is surely there (the owner's request below may delete it).
    describeRestrictedKeys(route, fixture, context, own, () => request, (key, fresh) => send(key, fresh));

    it("answers the owner's valid request with a declared 2xx (the fixture works)", async () => {
      const ctx = context();
      const response = await send(keyOf(ctx, ctx.owner, own));
      expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
    });

    it("without a key: 401 unauthenticated with WWW-Authenticate: Bearer", async () => {
      const response = await send(undefined);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("unauthenticated");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    });

    it("with a malformed, mistyped, unknown, revoked or expired key: one identical 401 invalid_api_key", async () => {
      const { runtime, owner } = context();
      const ctx = serviceContext(runtime, merchantUser(owner.merchant.id));
      const revoked = await createApiKey({ ctx, input: { name: "security suite: revoked" } });
      await revokeApiKey({ ctx, input: { id: revoked.apiKey.id } });
      const rolled = await createApiKey({ ctx, input: { name: "security suite: rolled" } });
      const successor = await rollApiKey({ ctx, input: { id: rolled.apiKey.id, overlapSeconds: 0 } });
      // Keeps the owner under the cap on active keys however many routes the table grows to.
      await revokeApiKey({ ctx, input: { id: successor.apiKey.id } });
      const key = owner.apiKey;
      const lastChar = key.at(-1) === "A" ? "B" : "A";
      const cases: Record<string, string | undefined> = {
        malformed: "not-a-key",
        "wrong prefix": key.replace("sk_live_", "sk_test_"),
        "wrong checksum": key.slice(0, -1) + lastChar,
        "unknown (well-formed, never issued)": generateApiKey(),
        revoked: revoked.key,
        "expired (rolled)": rolled.key,
      };
      const answers: Record<string, ApiResponse> = {};
      for (const [name, candidate] of Object.entries(cases)) answers[name] = await send(candidate);
      for (const [name, response] of Object.entries(answers)) {
        expect(response.status, name).toBe(401);
        expect(response.body.code, name).toBe("invalid_api_key");
        expect(response.headers.get("www-authenticate"), name).toMatch(/^Bearer/);
      }
      // No oracle: apart from the request id, every failure reads the same.
      const shapes = new Set(Object.values(answers).map(({ body }) => JSON.stringify({ ...body, requestId: null })));
      expect(shapes.size).toBe(1);
      // A basic scheme or a bare key is no bearer token either.
      const basic = await send(undefined, { headers: { "x-forwarded-for": ip, authorization: `Basic ${btoa(key + ":")}` } });
      expect(basic.status).toBe(401);
    });

    if (fixture.kind === "resource") {
      it("with another merchant's key: 404 not_found, never 403", async () => {
        const ctx = context();
        const response = await send(keyOf(ctx, ctx.other, own));
        expect(response.status, JSON.stringify(response.body)).toBe(404);
        expect(response.body.code).toBe("not_found");
      });
    }

    if (fixture.kind === "list") {
      it("lists each merchant's own rows and never another merchant's", async () => {
        const ctx = context();
        const ownerRow = await fixture.seed(ctx, ctx.owner, "live");
        const otherRow = await fixture.seed(ctx, ctx.other, "live");
        const ownerIds = ids(await send(ctx.owner.apiKey));
        const otherIds = ids(await send(ctx.other.apiKey));
        expect(ownerIds).toContain(ownerRow);
        expect(ownerIds).not.toContain(otherRow);
        expect(otherIds).toContain(otherRow);
        expect(otherIds).not.toContain(ownerRow);
      });

      it("lists each mode's rows to that mode's key only (live vs test)", async () => {
        const ctx = context();
        const liveRow = await fixture.seed(ctx, ctx.owner, "live");
        const testRow = await fixture.seed(ctx, ctx.owner, "test");
        const liveIds = ids(await send(keyOf(ctx, ctx.owner, "live")));
        const testIds = ids(await send(keyOf(ctx, ctx.owner, "test")));
        expect(liveIds).toContain(liveRow);
        expect(liveIds).not.toContain(testRow);
        expect(testIds).toContain(testRow);
        expect(testIds).not.toContain(liveRow);
      });
    }

    if (fixture.kind !== "list") {
      it(`live vs test: ${crossModeExpectation(fixture.kind, mode)}`, async () => {
        const ctx = context();
        const response = await send(keyOf(ctx, ctx.owner, otherMode));
        const detail = JSON.stringify(response.body);
        if (mode === "test-only") {
          expect(response.status, detail).toBe(403);
          expect(response.body.code).toBe("test_mode_only");
        } else if (mode === "settings") {
          expect(response.status, detail).toBe(403);
          expect(response.body.code).toBe("forbidden");
        } else if (mode === "merchant" || fixture.kind === "action") {
          expect(response.status, detail).toBeGreaterThanOrEqual(200);
          expect(response.status, detail).toBeLessThan(300);
        } else {
          expect(response.status, detail).toBe(404);
          expect(response.body.code).toBe("not_found");
        }
      });
    }
  });
}

/**
 * Restricted keys on this route, derived from its declared permission: the widest scopes lacking it → 403
 * `insufficient_scope` naming it, and no row of any table changes; the narrowest scopes granting it → served (2xx);
 * another merchant's restricted key granted it → 404 for the owner's resource. A route no scope can grant (the key
 * routes, `api_keys.*`) refuses even a key with `write` on every resource. The served request is built afresh from
 * the fixture (the owner's valid request may have deleted or cancelled the shared one's resource); the refusals
 * reuse the shared one, since no refusal depends on the resource still being there.
 */
function describeRestrictedKeys(
  route: AnyRoute,
  fixture: SecurityFixture,
  context: () => SecurityContext,
  mode: KeyMode,
  shared: () => FixtureRequest,
  send: (key: string, request: FixtureRequest) => Promise<ApiResponse>,
) {
  const permission = route.permission!;
  const { scopable } = scopeOf(permission);

  it(`with a restricted key lacking ${permission}: 403 insufficient_scope naming it, nothing changed`, async () => {
    const ctx = context();
    const request = shared();
    const db = ctx.runtime.database.db;
    await withRestrictedKey(ctx.runtime, ctx.owner.merchant.id, { mode, scopes: scopesLacking(permission) }, async (key, keyId) => {
      const before = await snapshotTables(db);
      const response = await send(key, request);
      expect(response.status, JSON.stringify(response.body)).toBe(403);
      expect(response.body.code).toBe("insufficient_scope");
      expect(response.body.permission).toBe(permission);
      expect(response.body.detail).toContain(permission);
      expect(await snapshotTables(db)).toEqual(before);
      // …and audit-logged in the merchant's log, naming the key, the permission and the route.
      const [entry] = rowsOf<{ merchant_id: string; details: { route: string } }>(
        await db.execute(sql`select merchant_id, details from audit_log where action = ${SCOPE_REFUSAL_ACTION} and actor_id = ${keyId} and target_id = ${permission}`),
      );
      expect(entry, `refusal of ${permission} audited`).toMatchObject({ merchant_id: ctx.owner.merchant.id, details: { route: route.path } });
    });
  });

  if (!scopable) return;

  it(`with a restricted key granted just ${permission}: served (2xx)`, async () => {
    const ctx = context();
    const request = await fixture.request(ctx);
    await withRestrictedKey(ctx.runtime, ctx.owner.merchant.id, { mode, scopes: scopesGranting(permission) }, async (key) => {
      const response = await send(key, request);
      expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200);
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    });
  });

  if (fixture.kind !== "resource") return;

  it(`with another merchant's restricted key granted ${permission}: 404 not_found`, async () => {
    const ctx = context();
    const request = shared();
    await withRestrictedKey(ctx.runtime, ctx.other.merchant.id, { mode, scopes: scopesGranting(permission) }, async (key) => {
      const response = await send(key, request);
      expect(response.status, JSON.stringify(response.body)).toBe(404);
      expect(response.body.code).toBe("not_found");
    });
  });
}

function crossModeExpectation(kind: "resource" | "action", mode: ModeBehaviour): string {
  if (mode === "test-only") return "the live key gets 403 test_mode_only";
  if (mode === "settings") return "the test key gets 403 forbidden (live settings)";
  if (mode === "merchant") return "the test key reads the merchant too (2xx)";
  return kind === "action" ? "the test key's request works in test mode (2xx)" : "the test key gets 404 not_found for a live resource";
}

function ids(response: ApiResponse): string[] {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(Array.isArray(response.body?.data), "a list answers { data: [...] }").toBe(true);
  return response.body.data.map((row: { id: string }) => row.id);
}
