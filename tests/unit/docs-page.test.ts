import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import DocsPage from "../../src/app/docs/page";
import ErrorsPage from "../../src/app/docs/errors/page";
import QuickstartPage from "../../src/app/docs/quickstart/page";
import { quickstartSteps } from "../../src/app/docs/quickstart/steps";
import { referenceConfiguration, SCALAR_SCRIPT } from "../../src/app/docs/reference-configuration";
import { openApiDocument, routes } from "../../src/server/http/routes";
import { ERROR_CODES } from "../../src/server/services/error-codes";

// The pages are server components without request data: render them as `next build` would.
describe("the docs pages", () => {
  it("/docs mounts Scalar on the served OpenAPI document, and links the quickstart and the error codes", () => {
    const html = renderToStaticMarkup(DocsPage());
    expect(html).toContain('id="scalar-reference"');
    expect(html).toContain('href="/docs/quickstart"');
    expect(html).toContain('href="/docs/errors"');
    expect(referenceConfiguration().url).toBe("/api/v1/openapi.json");
    expect(SCALAR_SCRIPT.startsWith("/")).toBe(true); // our own origin, never a CDN
  });

  it("configures Scalar to reach no other host: no CDN fonts, telemetry, AI agent, MCP or request proxy", () => {
    const configuration: Record<string, unknown> = referenceConfiguration();
    expect(configuration).toMatchObject({ withDefaultFonts: false, telemetry: false, agent: { disabled: true }, mcp: { disabled: true } });
    expect(configuration).not.toHaveProperty("proxyUrl");
    expect(JSON.stringify(configuration)).not.toMatch(/https?:\/\//);
  });

  it("gives every operation an SDK and a curl sample built from its declaration", () => {
    const document = openApiDocument();
    for (const route of routes) {
      const operation = (document.paths as Record<string, Record<string, { "x-codeSamples"?: { label: string; source: string }[] }>>)[route.path]![
        route.method.toLowerCase()
      ]!;
      const samples = operation["x-codeSamples"] ?? [];
      expect(samples.map((sample) => sample.label), route.operationId).toEqual(["SDK (TypeScript)", "curl"]);
      expect(samples[0]!.source).toContain(`mps.${route.method}("${route.path}"`);
      expect(samples[1]!.source).toContain(`/api/v1${route.path.replace(/\{\w+\}/g, "…")}`);
      if (route.auth === "api_key") expect(samples[1]!.source).toContain("Authorization: Bearer $MPS_API_KEY");
    }
  });

  it("/docs/quickstart shows every step's code exactly as the quickstart test runs it", () => {
    const html = renderToStaticMarkup(QuickstartPage());
    const escape = (text: string) => renderToStaticMarkup(createElement("code", null, text)).slice("<code>".length, -"</code>".length);
    for (const step of quickstartSteps) {
      expect(html).toContain(`id="${step.id}"`);
      expect(html).toContain(escape(step.code.source));
      if (step.code.lang === "ts") expect(html).toContain(escape(step.code.run));
    }
  });

  it("/docs/errors has an anchor for every code, where problem `type` links point", async () => {
    const html = renderToStaticMarkup(await ErrorsPage());
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`id="${code}"`);
  });
});
