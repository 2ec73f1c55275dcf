import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { QueryView } from "./states";

type Page = { data: string[] };
const render = (query: { isPending: boolean; isError: boolean; error: unknown; data: Page | undefined; refetch?: () => unknown }, empty?: string) =>
  renderToStaticMarkup(createElement(QueryView<Page>, { query, what: "payments", empty, children: (page: Page) => `items: ${page.data.join(",")}` }));

describe("QueryView", () => {
  it("says what is loading while the query is pending", () => {
    expect(render({ isPending: true, isError: false, error: null, data: undefined })).toContain("Loading payments…");
  });

  it("shows the error, not the page kept from an earlier fetch, when a refetch failed", () => {
    const html = render({ isPending: false, isError: true, error: new Error("Too many requests"), data: { data: ["old"] } });
    expect(html).toContain('role="alert"');
    expect(html).toContain("Could not load payments: Too many requests");
    expect(html).not.toContain("old");
  });

  it("shows the empty text for a page with no items, and the page otherwise", () => {
    expect(render({ isPending: false, isError: false, error: null, data: { data: [] } }, "No payments yet.")).toContain("No payments yet.");
    expect(render({ isPending: false, isError: false, error: null, data: { data: ["a", "b"] } }, "No payments yet.")).toContain("items: a,b");
  });

  it("hands an empty page to its children when no empty text is given", () => {
    expect(render({ isPending: false, isError: false, error: null, data: { data: [] } })).toBe("items: ");
  });

  it("offers Try again on an error when the query can be fetched again, and only then", () => {
    const error = new Error("Too many requests");
    expect(render({ isPending: false, isError: true, error, data: undefined, refetch: () => undefined })).toContain(">Try again</button>");
    expect(render({ isPending: false, isError: true, error, data: undefined })).not.toContain("Try again");
  });
});
