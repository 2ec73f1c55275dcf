import { benchCreatePayment } from "../../../../handlers";

// POST /api/bench/payment – benchmark floor: payment + event + delivery in one transaction
export const dynamic = "force-dynamic";
export async function POST(request: Request) {
  return benchCreatePayment(request);
}
