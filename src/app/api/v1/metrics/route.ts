import { answerMetricsScrape } from "@/server/http/metrics/endpoint";
import { getRuntime } from "@/server/runtime";

// Its own route, not a declaration in src/server/http/routes: it answers Prometheus text, not JSON, to an
// operator's METRICS_TOKEN rather than a merchant's API key, and is no part of the merchant API (not in the
// OpenAPI document). This static segment wins over the catch-all beside it; every method comes here, so an
// unset METRICS_TOKEN leaves no trace of it (docs/operations.md).
const answer = async (request: Request) => answerMetricsScrape(await getRuntime(), request);
export { answer as GET, answer as HEAD, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as OPTIONS };
