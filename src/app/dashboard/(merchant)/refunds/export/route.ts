import { listRefunds } from "@/server/services/refunds/list";
import { refundSchema, listRefundsInput, type ListRefundsInput } from "@/server/services/refunds/schemas";
import { merchantListExport } from "../../list-export";

// GET /dashboard/refunds/export – the refunds list's filters, as CSV (list-export.ts).
export const GET = merchantListExport<ListRefundsInput, Awaited<ReturnType<typeof listRefunds>>["data"][number]>({
  list: "refunds",
  permission: "refunds.read",
  shape: refundSchema,
  input: listRefundsInput,
  read: listRefunds,
});
