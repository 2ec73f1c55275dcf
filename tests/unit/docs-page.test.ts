import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import DocsPage from "../../src/app/docs/page";
import ErrorsPage from "../../src/app/docs/errors/page";
import { routes } from "../../src/server/http/routes";
import { eventTypes } from "../../src/server/openapi/webhooks";
import { ERROR_CODES } from "../../src/server/services/error-codes";

// Both pages are server components without request data: render them as `next build` would.
describe("the docs pages", () => {
  it("/docs shows every operation and every webhook event, each at its own anchor", async () => {
    const html = renderToStaticMarkup(await DocsPage());
    for (const route of routes) {
      expect(html, route.operationId).toContain(`id="${route.operationId}"`);
      expect(html).toContain(`/api/v1${route.path}`);
    }
    for (const type of eventTypes) expect(html).toContain(`id="event-${type}"`);
  });

  it("/docs/errors has an anchor for every code, where problem `type` links point", async () => {
    const html = renderToStaticMarkup(await ErrorsPage());
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`id="${code}"`);
  });
});
