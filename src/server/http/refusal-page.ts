import type { Problem } from "./problem";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

const HEADINGS: Record<number, string> = { 400: "This address is malformed", 429: "Too many requests" };

/**
 * A request refused before Next.js that a person may have made by following a link (a page, not /api/): a
 * plain page saying what happened, with the request id to quote. No script, no outside resource.
 */
export function refusalPage(status: number, problem: Problem): { html: string; headers: Record<string, string> } {
  const heading = HEADINGS[status] ?? problem.title;
  const advice = status === 429 ? problem.detail : "Check the link you followed, or start again from the home page.";
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escape(heading)}</title>` +
    `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:0 auto;padding:1.5rem 1rem;line-height:1.5;color:#16181d}` +
    `code{font-family:ui-monospace,monospace}a{color:#3b4fd8}</style></head><body><main>` +
    `<h1>${escape(heading)}</h1><p>${escape(advice)}</p><p><a href="/">Home page</a></p>` +
    `<p>Request id: <code>${escape(problem.requestId)}</code></p></main></body></html>`;
  return {
    html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
    },
  };
}
