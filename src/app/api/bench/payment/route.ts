import { benchCreatePayment } from "@/server/bench/handlers";

// POST /api/bench/payment – benchmark floor: payment + event + delivery in one transaction (404 unless BENCH_ROUTES=true)
export const dynamic = "force-dynamic";
export async function POST(request: Request) {
  return benchCreatePayment(request);
}
