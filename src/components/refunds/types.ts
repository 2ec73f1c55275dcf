import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>;

/** A refund as the dashboard receives it (the routers' output). */
export type RefundView = Outputs["refunds"]["get"];

/** The list's filters: its input without the paging. */
export type RefundFilters = Omit<inferRouterInputs<AppRouter>["refunds"]["list"], "limit" | "cursor">;
export type RefundStatus = NonNullable<RefundFilters["status"]>;
export type RefundCreateInput = inferRouterInputs<AppRouter>["refunds"]["create"]["input"];
export type RefundReason = NonNullable<RefundCreateInput["reason"]>;

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent",
  order_canceled: "Order canceled",
  other: "Other",
};
