import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

// A path that is not valid percent-encoding is refused at the HTTP server, before Next.js decodes a segment
// (which answered a plain-text 500 with no request id, log line, metric or limit). Every route of the app is
// tried, found from src/app itself, so a route added later is covered without touching this file.
const TOKEN = "e2e-metrics-token-e2e-metrics-token-0123";
const APP = path.resolve("src/app");

/** Each page and route handler's URL, its first dynamic segment (or one added at its end) badly encoded. */
function malformedPaths(): string[] {
  const found = new Set<string>();
  const walk = (folder: string, segments: string[]) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const group = /^\(.*\)$/.test(entry.name) || entry.name.startsWith("_");
        walk(path.join(folder, entry.name), group ? segments : [...segments, entry.name]);
      } else if (/^(page\.tsx|route\.ts)$/.test(entry.name)) {
        const dynamic = segments.findIndex((segment) => segment.startsWith("["));
        const bad = dynamic === -1 ? [...segments, "%zz"] : segments.map((segment, i) => (i === dynamic ? "%" : segment));
        found.add("/" + bad.map((segment) => (segment.startsWith("[") ? "x" : segment)).join("/"));
      }
    }
  };
  walk(APP, []);
  return [...found].sort();
}

// The reproductions of the report, beside the derived list.
const REPORTED = ["/api/v1/checkout/%", "/pay/%", "/api/v1/invoice/%zz", "/api/trpc/%", "/api/auth/%", "/api/v1/payment/%E0%A4%A"];

async function refusalCount(request: import("@playwright/test").APIRequestContext): Promise<number> {
  const scrape = await request.get("/api/v1/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = /^http_refused_requests_total\{reason="path_encoding",status="400"\} (\d+)$/m.exec(await scrape.text());
  return Number(line?.[1] ?? 0);
}

test("every route answers a malformed path with 400 (problem+json for the API, a page otherwise), counted", async ({ request }) => {
  const paths = [...new Set([...REPORTED, ...malformedPaths()])];
  expect(paths.length).toBeGreaterThan(50);
  const before = await refusalCount(request);
  for (const [i, target] of paths.entries()) {
    // One client address per request: the per-IP budget is the next test's subject.
    const response = await request.get(target, { headers: { "x-forwarded-for": `198.51.100.${i % 250}` }, maxRedirects: 0 });
    expect(response.status(), target).toBe(400);
    const requestId = response.headers()["x-request-id"];
    expect(requestId, target).toMatch(/^req_/);
    if (target.startsWith("/api/")) {
      expect(response.headers()["content-type"], target).toBe("application/problem+json");
      expect(await response.json(), target).toMatchObject({ status: 400, code: "validation_failed", requestId, errors: [{ path: "path" }] });
    } else {
      expect(response.headers()["content-type"], target).toBe("text/html; charset=utf-8");
      expect(await response.text(), target).toContain("This address is malformed");
    }
  }
  expect(await refusalCount(request)).toBe(before + paths.length);
});

test("malformed paths count against the sender's per-IP budget: past it, 429 with Retry-After", async ({ request }) => {
  const from = { "x-forwarded-for": "203.0.113.99" };
  let limited: Awaited<ReturnType<typeof request.get>> | undefined;
  for (let i = 0; i < 100 && !limited; i++) {
    const response = await request.get("/pay/%", { headers: from });
    if (response.status() === 429) limited = response;
    else expect(response.status()).toBe(400);
  }
  expect(limited, "a 429 within 100 requests").toBeDefined();
  expect(Number(limited!.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(limited!.headers()["x-request-id"]).toMatch(/^req_/);
  // Anyone else is not held back.
  expect((await request.get("/pay/%", { headers: { "x-forwarded-for": "203.0.113.100" } })).status()).toBe(400);
});
