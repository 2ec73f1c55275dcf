import { answerMetricsScrape } from "@/server/metrics/endpoint";
import { getRuntime } from "@/server/runtime";

// Its own route, not a declaration in src/server/http/routes: it answers Prometheus text, not JSON, to an
// operator's METRICS_TOKEN rather than a merchant's API key, and is no part of the merchant API (not in the
// OpenAPI document). This static segment wins over the catch-all beside it.
export async function GET(request: Request): Promise<Response> {
  return answerMetricsScrape(await getRuntime(), request);
}
