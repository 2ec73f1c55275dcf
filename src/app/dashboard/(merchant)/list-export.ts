import type { z } from "zod";
import { getEnv } from "@/env";
import { newId } from "@/lib/ids";
import { getDashboardSession } from "@/server/auth/current-session";
import { livemodeOfRequest } from "@/server/auth/dashboard-mode";
import type { Permission } from "@/server/auth/permissions";
import { merchantSideOf } from "@/server/auth/view-as";
import { isCrossSiteRequest } from "@/server/auth/same-origin";
import { csvAttachment, keysetItems } from "@/server/http/csv-attachment";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import type { ServiceContext } from "@/server/services/context";
import { isServiceError } from "@/server/services/errors";
import { pageQuery } from "@/server/services/pagination";

interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * GET /dashboard/<list>/export: the signed-in merchant's list (payments, refunds) matching the page's filters, as
 * CSV. The columns are the entity's API shape in its order, metadata (JSON text) last, so a new field of the shape
 * is a new column. The filters and the session's access are checked on the first page, before answering 200.
 */
export function merchantListExport<I, T extends { metadata: unknown }>(spec: {
  /** The list's name: the file's name and the messages'. */
  list: string;
  /** What the signed-in member's role must hold (the page's own permission). */
  permission: Permission;
  shape: z.ZodObject;
  /** The list's input: its fields but the page's are the export's filters (the page's own query names). */
  input: z.ZodObject;
  read: (args: { ctx: ServiceContext; input: I }) => Promise<Page<T>>;
}) {
  const columns = [...Object.keys(spec.shape.shape).filter((field) => field !== "metadata"), "metadata"];
  const filterNames = Object.keys(spec.input.shape).filter((field) => !(field in pageQuery));
  const PAGE = 100;

  return async function GET(request: Request): Promise<Response> {
    if (isCrossSiteRequest(request, getEnv().TRUSTED_PROXY_HOPS)) return new Response("Cross-site requests are refused.", { status: 403 });
    const user = await getDashboardSession();
    const runtime = await getRuntime();
    // The member's merchant, or the one a staff session views read-only (auth/view-as.ts).
    const side = merchantSideOf(user, runtime.now(), livemodeOfRequest(request));
    if (!side) return new Response(`Sign in as a merchant to export ${spec.list}.`, { status: 401 });
    if (!side.may(spec.permission)) return new Response(`Your role may not export ${spec.list}.`, { status: 403 });
    const ctx = createServiceContext(runtime, side.actor, newId("request"));
    const params = new URL(request.url).searchParams;
    const filters = Object.fromEntries(filterNames.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])));
    const pageFrom = (cursor?: string) => spec.read({ ctx, input: { ...filters, limit: PAGE, ...(cursor ? { cursor } : {}) } as I });

    let first;
    try {
      first = await pageFrom();
    } catch (error) {
      if (isServiceError(error)) return new Response(`Cannot export: ${error.detail}`, { status: error.status });
      throw error;
    }
    const rows = async function* () {
      for await (const item of keysetItems(first, pageFrom)) yield { ...item, metadata: JSON.stringify(item.metadata) };
    };
    const day = runtime.now().toISOString().slice(0, 10);
    return csvAttachment({ runtime, requestId: ctx.requestId, columns, rows: rows(), filename: `${spec.list}-${day}` });
  };
}
