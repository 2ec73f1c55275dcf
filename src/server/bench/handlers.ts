import { getEnv } from "@/env";
import { createFloor, FLOOR_CONSTANT, type Floor } from "./floor";

/**
 * The floor served by Next.js route handlers (src/app/api/bench/**), for `npm run bench` only: every
 * handler answers a bare 404 unless BENCH_ROUTES=true, and needs DATABASE_URL (the floor is measured on
 * the PostgreSQL server). The merchant comes from `x-bench-merchant`: there is no authentication here.
 */
const globalRef = globalThis as typeof globalThis & { __mpsBenchFloor?: Floor };

function floor(): Floor | null {
  const env = getEnv();
  if (!env.BENCH_ROUTES || !env.DATABASE_URL) return null;
  globalRef.__mpsBenchFloor ??= createFloor(env.DATABASE_URL);
  return globalRef.__mpsBenchFloor;
}

const notFound = () => new Response(null, { status: 404 });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function benchConstant(): Response {
  if (!getEnv().BENCH_ROUTES) return notFound();
  return json(200, FLOOR_CONSTANT);
}

export async function benchGetPayment(request: Request, id: string): Promise<Response> {
  const db = floor();
  if (!db) return notFound();
  const row = await db.getPayment(request.headers.get("x-bench-merchant") ?? "", id);
  return row ? json(200, row) : notFound();
}

export async function benchCreatePayment(request: Request): Promise<Response> {
  const db = floor();
  if (!db) return notFound();
  const input = (await request.json()) as { externalId: string; amount: string; currency: string };
  const row = await db.createPayment(request.headers.get("x-bench-merchant") ?? "", input);
  return json(201, row);
}
