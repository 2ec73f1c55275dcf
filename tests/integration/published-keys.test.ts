import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, publishedKeys, webhookDeliveries } from "../../src/server/db/schema";
import { generateKeyPair, publicJwk, publicPem } from "../support/key-fixtures";
import { jwkThumbprint } from "../../src/server/keys/thumbprint";
import { SUPPORTED_KEY_TYPES, type PublicJwk } from "../../src/server/keys/types";
import { createServiceContext } from "../../src/server/services/create-context";
import { listPublishedKeys } from "../../src/server/services/published-keys/list";
import { publishKeys } from "../../src/server/services/published-keys/publish";
import { revokePublishedKey } from "../../src/server/services/published-keys/revoke";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

const edJwk = () => publicJwk(generateKeyPair("Ed25519").publicKey);
const publish = (shop: TestMerchant, keys: unknown[]) =>
  api.post("/merchant/keys/publish", { key: shop.apiKey, body: { keys } });
const directory = (shop: TestMerchant, headers: Record<string, string> = {}) =>
  api.get(`/directory/${shop.merchant.id}`, { headers });
const rowsOf = (shop: TestMerchant) =>
  runtime.database.db.select().from(publishedKeys).where(eq(publishedKeys.merchantId, shop.merchant.id));

describe("POST /merchant/keys/publish", () => {
  it("publishes every supported type, from JWK and from PEM, storing only the canonical public JWK", async () => {
    const shop = await registerTestMerchant(api);
    const entries = SUPPORTED_KEY_TYPES.flatMap((keyType) => {
      const { publicKey } = generateKeyPair(keyType);
      const use = keyType === "X25519" ? "enc" : "sig";
      return [
        { jwk: { ...publicJwk(publicKey), kid: "ignored", x5c: ["AAAA"], alg: "none" }, use, label: `${keyType} jwk` },
        { pem: publicPem(publicKey), use, kid: `${keyType}-pem` },
      ];
    });
    for (const batch of [entries.slice(0, 10), entries.slice(10)]) {
      const response = await publish(shop, batch);
      expect(response.status, response.text).toBe(201);
      expect(response.body.data).toHaveLength(batch.length);
    }
    const rows = await rowsOf(shop);
    expect(rows).toHaveLength(entries.length);
    for (const row of rows) {
      const members = Object.keys(row.jwk).sort();
      expect([["crv", "kty", "x"], ["crv", "kty", "x", "y"], ["e", "kty", "n"]]).toContainEqual(members);
      expect(row.thumbprint).toBe(jwkThumbprint(row.jwk as PublicJwk));
      expect(row.status).toBe("active");
    }
  });

  it("answers each key with its id, default kid (the thumbprint), use, label and dates", async () => {
    const shop = await registerTestMerchant(api);
    const jwk = edJwk();
    const response = await publish(shop, [{ jwk, use: "sig", label: "  signing  " }]);
    const [key] = response.body.data;
    expect(key).toEqual({
      id: expect.stringMatching(/^pk_/),
      kid: jwkThumbprint(jwk as PublicJwk),
      use: "sig",
      label: "signing",
      jwk: { kty: "OKP", crv: "Ed25519", x: jwk.x },
      thumbprint: jwkThumbprint(jwk as PublicJwk),
      status: "active",
      createdAt: expect.any(String),
      retiredAt: null,
      revokedAt: null,
    });
  });

  it("rotates a kid: the old key is retired with its date and leaves the directory", async () => {
    const shop = await registerTestMerchant(api);
    const first = (await publish(shop, [{ jwk: edJwk(), kid: "main", use: "sig" }])).body.data[0];
    runtime.advanceTime(1_000);
    const second = (await publish(shop, [{ jwk: edJwk(), kid: "main", use: "sig" }])).body.data[0];
    expect(second.id).not.toBe(first.id);

    const rows = await rowsOf(shop);
    const old = rows.find((row) => row.id === first.id)!;
    expect(old.status).toBe("retired");
    expect(old.retiredAt!.getTime()).toBeGreaterThan(old.createdAt.getTime());
    expect(rows.filter((row) => row.status === "active").map((row) => row.id)).toEqual([second.id]);
    expect((await directory(shop)).body.keys.map((key: { x: string }) => key.x)).toEqual([second.jwk.x]);
  });

  it("serialises concurrent rotations of one kid: every request succeeds, one key ends up active", async () => {
    const shop = await registerTestMerchant(api);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => publish(shop, [{ jwk: edJwk(), kid: "race", use: "sig" }])),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    const statuses = (await rowsOf(shop)).map((row) => row.status).sort();
    expect(statuses).toEqual(["active", "retired", "retired", "retired", "retired"]);
  });

  it("treats the same key under the same kid as unchanged (no new row, no event) but takes a new label", async () => {
    const shop = await registerTestMerchant(api);
    const jwk = edJwk();
    const first = (await publish(shop, [{ jwk, use: "sig" }])).body.data[0];
    const again = await publish(shop, [{ jwk, use: "sig", label: "renamed" }]);
    expect(again.status).toBe(201);
    expect(again.body.data[0]).toMatchObject({ id: first.id, label: "renamed", status: "active" });
    expect(await rowsOf(shop)).toHaveLength(1);
    const published = await runtime.database.db.select().from(events).where(eq(events.merchantId, shop.merchant.id));
    expect(published.filter((event) => event.type === "keys.published")).toHaveLength(1);
  });

  it("keeps ordinary labels: words, JSON text without a secret, base64 that is not a private key", async () => {
    const shop = await registerTestMerchant(api);
    // 0x30 first, like DER, so the private-key reader is really asked and says no.
    const notAKey = Buffer.concat([Buffer.from([0x30, 0x2e]), Buffer.alloc(46, 7)]);
    const labels = [
      "Signing key 2026 (HSM slot 3)",
      JSON.stringify(edJwk()),
      '{"rotation": "yearly", "owner": "payments"}',
      "{not json",
      notAKey.toString("base64"),
      notAKey.toString("base64url"),
    ];
    const response = await publish(shop, labels.map((label) => ({ jwk: edJwk(), use: "sig", label })));
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.map((key: { label: string }) => key.label)).toEqual(labels);
  });

  it("emits keys.published with the new and retired keys, and queues a delivery to the webhook", async () => {
    const shop = await registerTestMerchant(api, { webhookUrl: "https://hooks.example.com/in" });
    const old = (await publish(shop, [{ jwk: edJwk(), kid: "k", use: "sig" }])).body.data[0];
    const fresh = (await publish(shop, [{ jwk: edJwk(), kid: "k", use: "sig" }])).body.data[0];
    const rows = await runtime.database.db
      .select()
      .from(events)
      .where(and(eq(events.merchantId, shop.merchant.id), eq(events.type, "keys.published")))
      .orderBy(events.createdAt, events.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.data).toEqual({
      keys: [{ id: fresh.id, kid: "k", use: "sig", thumbprint: fresh.thumbprint, jwk: fresh.jwk }],
      retired: [{ id: old.id, kid: "k", thumbprint: old.thumbprint }],
    });
    const deliveries = await runtime.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, rows[1]!.id));
    expect(deliveries).toMatchObject([{ status: "pending", url: "https://hooks.example.com/in" }]);
  });

  it("is all or nothing: one refused key refuses the request", async () => {
    const shop = await registerTestMerchant(api);
    const weak = { kty: "RSA", n: "AQAB", e: "AQAB" };
    const response = await publish(shop, [{ jwk: edJwk(), use: "sig" }, { jwk: weak, use: "sig" }]);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: "unsupported_key", errors: [{ path: "body.keys.1.jwk" }] });
    expect(await rowsOf(shop)).toHaveLength(0);
  });

  it.each([
    ["Ed25519", "enc"],
    ["X25519", "sig"],
  ] as const)("refuses %s keys for use %s", async (keyType, use) => {
    const shop = await registerTestMerchant(api);
    const response = await publish(shop, [{ jwk: publicJwk(generateKeyPair(keyType).publicKey), use }]);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("unsupported_key");
  });

  it("refuses two keys with the same kid in one request", async () => {
    const shop = await registerTestMerchant(api);
    const response = await publish(shop, [
      { jwk: edJwk(), kid: "same", use: "sig" },
      { jwk: edJwk(), kid: "same", use: "sig" },
    ]);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "body.keys.1.kid", message: "same kid as keys[0]" }]);
  });

  it.each([
    [{ keys: [] }, "body.keys"],
    [{ keys: [{ jwk: {}, use: "both" }] }, "body.keys.0.use"],
    [{ keys: [{ jwk: {}, use: "sig", kid: "with space" }] }, "body.keys.0.kid"],
    [{ keys: [{ jwk: {}, use: "sig" }], extra: 1 }, "body.extra"],
  ])("answers an invalid body %j with 400 at %s", async (body, path) => {
    const shop = await registerTestMerchant(api);
    const response = await api.post("/merchant/keys/publish", { key: shop.apiKey, body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });

  it("never answers arbitrary entries with a 500", async () => {
    const shop = await registerTestMerchant(api);
    const jwkLike = fc.dictionary(fc.constantFrom("kty", "crv", "x", "y", "n", "e", "d"), fc.jsonValue());
    const entry = fc.record(
      {
        jwk: fc.oneof(fc.jsonValue(), jwkLike),
        pem: fc.string(),
        kid: fc.string(),
        use: fc.constantFrom("sig", "enc", "x"),
        label: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 3 }), async (keys) => {
        const response = await publish(shop, keys);
        expect(response.status, response.text).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it("needs an API key", async () => {
    const anonymous = await api.post("/merchant/keys/publish", { body: { keys: [{ jwk: edJwk(), use: "sig" }] } });
    expect(anonymous.status).toBe(401);
    const wrong = await api.post("/merchant/keys/publish", { key: "sk_live_nope", body: { keys: [] } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("invalid_api_key");
  });
});

describe("limits", () => {
  it("takes at most 10 keys per request", async () => {
    const shop = await registerTestMerchant(api);
    const response = await publish(shop, Array.from({ length: 11 }, () => ({ jwk: edJwk(), use: "sig" })));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("too_many_keys");
    expect(await rowsOf(shop)).toHaveLength(0);
  });

  it("keeps at most 50 active keys, still allows rotating one, and counts revoked keys out", async () => {
    const shop = await registerTestMerchant(api);
    for (let batch = 0; batch < 5; batch++) {
      const keys = Array.from({ length: 10 }, (_, i) => ({ jwk: edJwk(), kid: `k${batch * 10 + i}`, use: "sig" }));
      expect((await publish(shop, keys)).status).toBe(201);
    }
    const over = await publish(shop, [{ jwk: edJwk(), use: "sig" }]);
    expect(over.status).toBe(422);
    expect(over.body.code).toBe("too_many_keys");
    expect(await rowsOf(shop)).toHaveLength(50);

    expect((await publish(shop, [{ jwk: edJwk(), kid: "k7", use: "sig" }])).status).toBe(201);
    const [k8] = (await rowsOf(shop)).filter((row) => row.kid === "k8");
    expect((await api.post(`/merchant/keys/${k8!.id}/revoke`, { key: shop.apiKey })).status).toBe(200);
    expect((await publish(shop, [{ jwk: edJwk(), use: "sig" }])).status).toBe(201);
    expect((await directory(shop)).body.keys).toHaveLength(50);
  });

  it("holds the active-key limit under concurrent publishes", async () => {
    const shop = await registerTestMerchant(api);
    for (let batch = 0; batch < 4; batch++) {
      await publish(shop, Array.from({ length: 10 }, () => ({ jwk: edJwk(), use: "sig" })));
    }
    await publish(shop, Array.from({ length: 5 }, () => ({ jwk: edJwk(), use: "sig" })));
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => publish(shop, Array.from({ length: 3 }, () => ({ jwk: edJwk(), use: "sig" })))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422]);
    expect(await rowsOf(shop)).toHaveLength(48);
  });

  it("refuses a key over 16 KiB with key_too_large", async () => {
    const shop = await registerTestMerchant(api);
    const pem = publicPem(generateKeyPair("Ed25519").publicKey) + "\n".repeat(16 * 1024);
    const response = await publish(shop, [{ pem, use: "sig" }]);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("key_too_large");
  });
});

describe("POST /merchant/keys/{id}/revoke", () => {
  it("revokes a key, which leaves the directory; revoking again answers it unchanged", async () => {
    const shop = await registerTestMerchant(api);
    const [keep, drop] = (await publish(shop, [{ jwk: edJwk(), use: "sig" }, { jwk: edJwk(), use: "sig" }])).body.data;
    const revoked = await api.post(`/merchant/keys/${drop.id}/revoke`, { key: shop.apiKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: drop.id, status: "revoked", revokedAt: expect.any(String) });
    expect((await directory(shop)).body.keys.map((key: { kid: string }) => key.kid)).toEqual([keep.kid]);
    const again = await api.post(`/merchant/keys/${drop.id}/revoke`, { key: shop.apiKey });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
  });

  it("answers 404 for another merchant's key, an unknown id and junk, and leaves the key alone", async () => {
    const owner = await registerTestMerchant(api);
    const other = await registerTestMerchant(api);
    const [key] = (await publish(owner, [{ jwk: edJwk(), use: "sig" }])).body.data;
    for (const id of [key.id, "pk_01jd0000000000000000000000", "nonsense"]) {
      const response = await api.post(`/merchant/keys/${id}/revoke`, { key: other.apiKey });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("not_found");
    }
    expect((await rowsOf(owner))[0]!.status).toBe("active");
  });
});

describe("GET /directory/{merchantId}", () => {
  it("serves the active keys as a JWKS with kid and use, cacheable, without auth", async () => {
    const shop = await registerTestMerchant(api);
    const x25519 = publicJwk(generateKeyPair("X25519").publicKey);
    const ec = publicJwk(generateKeyPair("P-256").publicKey);
    await publish(shop, [{ jwk: x25519, kid: "enc-1", use: "enc" }, { jwk: ec, kid: "sig-1", use: "sig" }]);
    const response = await directory(shop);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      keys: [
        { kty: "OKP", crv: "X25519", x: x25519.x, kid: "enc-1", use: "enc" },
        { kty: "EC", crv: "P-256", x: ec.x, y: ec.y, kid: "sig-1", use: "sig" },
      ],
    });
    expect(response.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
    expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  });

  it("answers 304 on a matching If-None-Match, and 200 with a new ETag once the keys change", async () => {
    const shop = await registerTestMerchant(api);
    await publish(shop, [{ jwk: edJwk(), use: "sig" }]);
    const etag = (await directory(shop)).headers.get("etag")!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const cached = await directory(shop, { "if-none-match": header });
      expect(cached.status, header).toBe(304);
      expect(cached.text).toBe("");
      expect(cached.headers.get("etag")).toBe(etag);
    }
    expect((await directory(shop, { "if-none-match": '"stale"' })).status).toBe(200);

    await publish(shop, [{ jwk: edJwk(), use: "sig" }]);
    const changed = await directory(shop, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("shows each merchant only its own keys", async () => {
    const a = await registerTestMerchant(api);
    const b = await registerTestMerchant(api);
    const jwkA = edJwk();
    await publish(a, [{ jwk: jwkA, kid: "shared", use: "sig" }]);
    await publish(b, [{ jwk: edJwk(), kid: "shared", use: "sig" }]);
    expect((await directory(a)).body.keys.map((key: { x: string }) => key.x)).toEqual([jwkA.x]);
    expect((await rowsOf(a)).map((row) => row.status)).toEqual(["active"]);
  });

  it("answers 404 for an unknown merchant and for junk ids, an empty set for a merchant without keys", async () => {
    for (const id of ["mer_01jd0000000000000000000000", "not-a-merchant", "%E0%A4%A"]) {
      const response = await api.get(`/directory/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("not_found");
    }
    const shop = await registerTestMerchant(api);
    expect((await directory(shop)).body).toEqual({ keys: [] });
  });
});

describe("verbs called directly (the dashboard's path)", () => {
  const ctxFor = (shop: TestMerchant) =>
    createServiceContext(runtime, { type: "system", merchantId: shop.merchant.id }, "req_test");

  it("pages through every key newest first, filters by status, and sees only the merchant's own", async () => {
    const shop = await registerTestMerchant(api);
    const other = await registerTestMerchant(api);
    await publish(other, [{ jwk: edJwk(), use: "sig" }]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      runtime.advanceTime(10);
      ids.push((await publish(shop, [{ jwk: edJwk(), kid: i < 3 ? "rotating" : `k${i}`, use: "sig" }])).body.data[0].id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listPublishedKeys({ ctx: ctxFor(shop), input: { limit: 2, cursor } });
      seen.push(...page.data.map((key) => key.id));
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    const retired = await listPublishedKeys({ ctx: ctxFor(shop), input: { status: "retired" } });
    expect(retired.data.map((key) => key.id)).toEqual([ids[1], ids[0]]);
  });

  it("lets support staff read a merchant's keys but not publish or revoke them", async () => {
    const shop = await registerTestMerchant(api);
    const [key] = (await publish(shop, [{ jwk: edJwk(), use: "sig" }])).body.data;
    const staff = createServiceContext(
      runtime,
      { type: "staff", userId: "usr_staff", merchantId: shop.merchant.id },
      "req_test",
    );
    expect((await listPublishedKeys({ ctx: staff, input: {} })).data).toHaveLength(1);
    await expect(
      publishKeys({ ctx: staff, input: { keys: [{ jwk: edJwk(), use: "sig" }] } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(revokePublishedKey({ ctx: staff, input: { id: key.id } })).rejects.toMatchObject({ code: "forbidden" });
    expect((await rowsOf(shop)).map((row) => row.status)).toEqual(["active"]);
  });

  it("refuses a cursor it did not make", async () => {
    const shop = await registerTestMerchant(api);
    await expect(listPublishedKeys({ ctx: ctxFor(shop), input: { cursor: "bm9wZQ" } })).rejects.toMatchObject({
      code: "invalid_cursor",
    });
  });
});
