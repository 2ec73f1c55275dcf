import { benchConstant } from "@/server/bench/handlers";

// GET /api/bench/constant – benchmark floor: a constant JSON body (404 unless BENCH_ROUTES=true)
export const dynamic = "force-dynamic";
export async function GET() {
  return benchConstant();
}
