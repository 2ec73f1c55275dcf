import { listPayments } from "@/server/services/payments/list";
import { paymentSchema, listPaymentsInput, type ListPaymentsInput } from "@/server/services/payments/schemas";
import { merchantListExport } from "../../list-export";

// GET /dashboard/payments/export – the payments list's filters, as CSV (list-export.ts).
export const GET = merchantListExport<ListPaymentsInput, Awaited<ReturnType<typeof listPayments>>["data"][number]>({
  list: "payments",
  permission: "payments.read",
  shape: paymentSchema,
  input: listPaymentsInput,
  read: listPayments,
});
