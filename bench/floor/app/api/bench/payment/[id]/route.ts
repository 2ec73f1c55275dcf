import { benchGetPayment } from "../../../../../handlers";

// GET /api/bench/payment/{id} – benchmark floor: one payment by id and merchant
export const dynamic = "force-dynamic";
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  return benchGetPayment(request, (await context.params).id);
}
