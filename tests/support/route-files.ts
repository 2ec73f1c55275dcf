import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { servedRoute } from "../../src/server/http/next";
import { HTTP_METHODS, type AnyRoute, type HttpMethod } from "../../src/server/http/route";

const API_DIR = path.resolve(import.meta.dirname, "../../src/app/api/v1");

export interface RouteFile {
  /** Relative to src/app/api/v1, e.g. `merchant/[id]/stats/route.ts`. */
  file: string;
  /** The OpenAPI-style template its folder stands for: `/merchant/{id}/stats`; null for a catch-all. */
  template: string | null;
  /** The declaration each exported method serves (405 stubs serve none). */
  served: { method: HttpMethod; route: AnyRoute }[];
  /** The file's OPTIONS export, which serves no declaration; undefined when Next.js would make up its own. */
  options: ((request: Request) => Promise<Response>) | undefined;
}

/**
 * Every `route.ts` under src/app/api/v1 as Next.js sees it, imported, with the declarations its exports
 * were built from (routeHandlers records them): what the server really answers, read from disk.
 */
export async function loadRouteFiles(): Promise<RouteFile[]> {
  const files = readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(path.join(API_DIR, file)).href)) as Record<string, unknown>;
      const served = HTTP_METHODS.flatMap((method) => {
        const route = servedRoute(module[method]);
        return route ? [{ method, route }] : [];
      });
      const options = typeof module.OPTIONS === "function" ? (module.OPTIONS as RouteFile["options"]) : undefined;
      return { file, template: templateOf(path.dirname(file)), served, options };
    }),
  );
}

/** Folder → template: `[id]` → `{id}`, route groups `(x)` vanish; catch-alls (`[...x]`) match anything. */
export function templateOf(folder: string): string | null {
  const segments = folder === "." ? [] : folder.split(path.sep);
  if (segments.some((segment) => segment.startsWith("[..") || segment.startsWith("[[..."))) return null;
  const kept = segments.filter((segment) => !/^\(.*\)$/.test(segment));
  return "/" + kept.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
}
