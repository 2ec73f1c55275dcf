import type { ServiceContext } from "../context";
import { validateInput } from "../validate";
import { queryDeliveries } from "./list";
import { listFailedDeliveriesInput, type ListFailedDeliveriesInput } from "./schemas";

/**
 * The merchant's failed deliveries, newest first, keyset-paginated on (created_at, id) with the shared
 * signed cursors: the delivery list (list.ts) with `status=failed`, kept for round-1 clients, with its own
 * cursor scope (a cursor only works on the list that issued it).
 */
export async function listFailedDeliveries({ ctx, input }: { ctx: ServiceContext; input: ListFailedDeliveriesInput }) {
  const filters = validateInput(listFailedDeliveriesInput, input, "query");
  return queryDeliveries(ctx, { ...filters, status: ["failed"] }, { list: "failed-deliveries", view: "failedDeliveries" });
}
