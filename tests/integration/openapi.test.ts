import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchRoute } from "../../src/server/http/dispatch";
import { API_PREFIX } from "../../src/server/http/route";
import { routes } from "../../src/server/http/routes";
import { generateOpenApiDocument, type OpenApiDocument } from "../../src/server/openapi/document";
import { testClient, type TestClient } from "../support/client";
import { loadRouteFiles, type RouteFile } from "../support/route-files";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

let runtime: TestRuntime;
let api: TestClient;
let document: OpenApiDocument;
let routeFiles: RouteFile[];

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  routeFiles = await loadRouteFiles();
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

describe("route files under src/app/api/v1 ↔ declarations ↔ document", () => {
  it("every route file serves declarations of its own folder's path", () => {
    for (const file of routeFiles) {
      if (file.template === null) {
        expect(file.served, `${file.file} is a catch-all and must serve no declaration`).toEqual([]);
        continue;
      }
      expect(file.served.length, `${file.file} has no route declaration (build it with routeHandlers)`).toBeGreaterThan(0);
      for (const { method, route } of file.served) {
        expect(route.method, `${file.file} exports ${method} for ${route.operationId}`).toBe(method);
        expect(route.path, `${file.file} serves ${route.operationId}, declared for another path`).toBe(file.template);
        expect(routes, `${route.operationId} (served by ${file.file}) is missing from the registry`).toContain(route);
      }
    }
  });

  it("the document's operations are exactly the ones the route files serve", () => {
    const served = routeFiles.flatMap((file) => file.served.map(({ method, route }) => `${method} ${route.path}`));
    const documented = operations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(served.filter((key, i) => served.indexOf(key) !== i), "served by two files").toEqual([]);
    expect([...documented].sort()).toEqual([...served].sort());
  });

  it("every route file answers OPTIONS from its declarations: 204, Allow, x-request-id (a catch-all: 404)", async () => {
    for (const file of routeFiles) {
      expect(file.options, `${file.file} exports no OPTIONS: Next.js would answer with its own Allow`).toBeDefined();
      const path = API_PREFIX + (file.template ?? "/no/such/path").replace(/\{(\w+)\}/g, "sample_$1");
      const response = await file.options!(new Request("http://localhost" + path, { method: "OPTIONS" }));
      expect(response.headers.get("x-request-id"), file.file).toMatch(/^req_/);
      if (file.template === null) {
        expect(response.status, file.file).toBe(404);
        continue;
      }
      const declared = file.served.map(({ method }) => method);
      const expected = [...declared, ...(declared.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
      expect(response.status, file.file).toBe(204);
      expect(response.headers.get("allow"), file.file).toBe(expected);
      expect(await response.text()).toBe("");
      const router = matchRoute(routes, "OPTIONS", path);
      expect(router.kind === "options" && router.allow, `the test-time router's OPTIONS for ${file.file}`).toBe(expected);
    }
  });

  it("the test-time router finds each served route where Next.js would", () => {
    for (const file of routeFiles) {
      for (const { method, route } of file.served) {
        const concrete = file.template!.replace(/\{(\w+)\}/g, "sample_$1");
        const match = matchRoute(routes, method, API_PREFIX + concrete);
        expect(match.kind === "route" && match.route, `${method} ${concrete}`).toBe(route);
      }
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
