import { createFloor, FLOOR_CONSTANT, type Floor } from "./floor";

/**
 * The floor served by Next.js route handlers (bench/floor/app/api/bench/**): a Next.js app of its own that
 * `npm run bench` builds and starts beside the real one, so the app that serves merchants holds no benchmark
 * code. It needs DATABASE_URL (the floor is measured on the PostgreSQL server). The merchant comes from
 * `x-bench-merchant`: there is no authentication here.
 */
const globalRef = globalThis as typeof globalThis & { __mpsBenchFloor?: Floor };

function floor(): Floor {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required");
  globalRef.__mpsBenchFloor ??= createFloor(url);
  return globalRef.__mpsBenchFloor;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function benchConstant(): Response {
  return json(200, FLOOR_CONSTANT);
}

export async function benchGetPayment(request: Request, id: string): Promise<Response> {
  const row = await floor().getPayment(request.headers.get("x-bench-merchant") ?? "", id);
  return row ? json(200, row) : new Response(null, { status: 404 });
}

export async function benchCreatePayment(request: Request): Promise<Response> {
  const input = (await request.json()) as { externalId: string; amount: string; currency: string };
  const row = await floor().createPayment(request.headers.get("x-bench-merchant") ?? "", input);
  return json(201, row);
}
