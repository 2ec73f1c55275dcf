import { readFileSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchRoute } from "../../src/server/http/dispatch";
import { API_PREFIX } from "../../src/server/http/route";
import { routes } from "../../src/server/http/routes";
import { generateOpenApiDocument, type OpenApiDocument } from "../../src/server/openapi/document";
import { testClient, type TestClient } from "../support/client";
import { API_DIR, expectedRouteFiles } from "../../scripts/routes/generate";
import { importRouteFile, routeFilesOnDisk, type RouteExport } from "../support/route-files";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

let runtime: TestRuntime;
let api: TestClient;
let document: OpenApiDocument;
let routeFiles: string[];
let catchAll: Record<string, unknown>;

const CATCH_ALL = "[...path]/route.ts";
/** The one route of its own (src/app/api/v1/metrics/route.ts says why); tested in metrics.test.ts. */
const METRICS = "metrics/route.ts";

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  routeFiles = routeFilesOnDisk();
  catchAll = await importRouteFile(CATCH_ALL);
  const response = await api.get("/openapi.json");
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(() => runtime.close());

describe("GET /openapi.json", () => {
  it("serves the document generated from the route declarations, cacheable", async () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(generateOpenApiDocument(routes))));
    expect(document.openapi).toBe("3.1.0");
    const response = await api.get("/openapi.json");
    expect(response.headers.get("cache-control")).toMatch(/max-age=\d+/);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    // The validator dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it("has unique operation ids", () => {
    const ids = operations(document).map(({ operation }) => operation.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

describe("the route files ↔ declarations ↔ document", () => {
  it("src/app/api/v1 holds the catch-all, the metrics route and one generated file per declared path, nothing else", () => {
    const expected = expectedRouteFiles();
    expect(routeFiles).toEqual([CATCH_ALL, METRICS, ...expected.keys()].sort());
    const stale = [...expected].filter(([file, content]) => readFileSync(path.join(API_DIR, file), "utf8") !== content);
    expect(stale.map(([file]) => file), "stale route files: run npm run routes:generate").toEqual([]);
  });

  it("every route file exports every method, answered by the same dispatch as the catch-all", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect(typeof catchAll[method], `${CATCH_ALL} exports ${method}`).toBe("function");
    }
    for (const file of expectedRouteFiles().keys()) {
      const exported = await importRouteFile(file);
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        expect(exported[method], `${file} exports ${method}`).toBe(catchAll[method]);
      }
    }
  });

  it("the document's operations are exactly the declared routes", () => {
    const declared = routes.map((route) => `${route.method} ${route.path}`);
    const documented = operations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(declared.filter((key, i) => declared.indexOf(key) !== i), "declared twice").toEqual([]);
    expect([...documented].sort()).toEqual([...declared].sort());
  });

  it("OPTIONS on every declared path answers from its declarations: 204, Allow, x-request-id (unknown: 404)", async () => {
    const options = catchAll.OPTIONS as RouteExport;
    for (const template of [...new Set(routes.map((route) => route.path)), "/no/such/path"]) {
      const path = API_PREFIX + template.replace(/\{(\w+)\}/g, "sample_$1");
      const response = await options(new Request("http://localhost" + path, { method: "OPTIONS" }));
      expect(response.headers.get("x-request-id"), path).toMatch(/^req_/);
      const declared = routes.filter((route) => route.path === template).map((route) => route.method);
      if (declared.length === 0) {
        expect(response.status, path).toBe(404);
        continue;
      }
      const expected = [...declared, ...(declared.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
      expect(response.status, path).toBe(204);
      expect(response.headers.get("allow"), path).toBe(expected);
      expect(await response.text()).toBe("");
    }
  });

  it("every declared route is found at its own path, static segments before parameters", () => {
    for (const route of routes) {
      const concrete = route.path.replace(/\{(\w+)\}/g, "sample_$1");
      const match = matchRoute(routes, route.method, API_PREFIX + concrete);
      expect(match.kind === "route" && match.route, `${route.method} ${concrete}`).toBe(route);
    }
  });
});

type Operation = { operationId?: string };

function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}
