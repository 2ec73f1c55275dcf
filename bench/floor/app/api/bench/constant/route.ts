import { benchConstant } from "../../../../handlers";

// GET /api/bench/constant – benchmark floor: a constant JSON body
export const dynamic = "force-dynamic";
export async function GET() {
  return benchConstant();
}
