import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>;
type StaffPayment = Outputs["payments"]["staff"]["search"]["data"][number];

/** A payment as the dashboard receives it (the routers' output); staff views add whose it is and the notes. */
export type PaymentView = Outputs["payments"]["get"] & Partial<Pick<StaffPayment, "merchantId" | "reconciledBy" | "reconciliationNote">>;

/** A payment's or invoice's events, each with the webhook deliveries that carry it. */
export type SubjectEvent = Outputs["events"]["forSubject"]["data"][number];

/** The list's filters: its input without the paging. */
export type PaymentFilters = Omit<inferRouterInputs<AppRouter>["payments"]["list"], "limit" | "cursor">;
