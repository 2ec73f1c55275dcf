/** The Payment as the dashboard shows it (docs/api-contract.md, "Shapes"; timestamps ISO 8601 UTC strings). */
export interface PaymentView {
  id: string;
  externalId: string;
  amount: string;
  currency: string;
  status: string;
  reference: string | null;
  invoiceId: string | null;
  method: string | null;
  network: string | null;
  metadata: Record<string, unknown>;
  occurredAt: string | null;
  confirmedAt: string | null;
  failedAt: string | null;
  reconciledAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Staff views only. */
  merchantId?: string;
  reconciliationNote?: string | null;
  reconciledBy?: string | null;
}

export interface PaymentFilters {
  q?: string;
  status?: "pending" | "confirmed" | "failed";
  currency?: string;
  reconciled?: "true" | "false";
  reference?: string;
  externalId?: string;
  createdFrom?: string;
  createdTo?: string;
}
