import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The API reference's renderer: Scalar's standalone browser bundle, served from our own origin (installed with
 * `@scalar/api-reference`, pinned in package.json), so /docs works with no network and loads nothing from a CDN.
 */
const BUNDLE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

let bundle: Promise<string> | undefined;

export async function GET(): Promise<Response> {
  bundle ??= readFile(BUNDLE, "utf8");
  return new Response(await bundle, {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
