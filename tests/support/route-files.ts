import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const API_DIR = path.resolve(import.meta.dirname, "../../src/app/api/v1");

/** Every `route.ts` under src/app/api/v1, relative to it, as Next.js would route them. */
export function routeFilesOnDisk(): string[] {
  return readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .sort();
}

export type RouteExport = (request: Request) => Promise<Response>;

/** The exports of one route file, imported as Next.js imports it. */
export async function importRouteFile(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(path.join(API_DIR, file)).href)) as Record<string, unknown>;
}
