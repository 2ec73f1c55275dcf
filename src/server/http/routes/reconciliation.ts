import { z } from "zod";
import { EXAMPLE_IDS, EXAMPLE_PAYMENT, EXAMPLE_REFUND } from "@/server/openapi/examples";
import { createReconciliation } from "@/server/services/reconciliations/create";
import { getReconciliation } from "@/server/services/reconciliations/get";
import {
  MAX_FILE_BYTES,
  MAX_FILE_LINES,
  reconciliationLinesQuery,
  reconciliationSchema,
  reconciliationWindowInput,
  type Reconciliation,
} from "@/server/services/reconciliations/schemas";
import { defineRoute } from "../route";

const EXAMPLE_RECONCILIATION: Reconciliation = {
  id: "rec_01jd7zc6d7e8f9g0h1j2k3m4n5",
  createdAt: "2026-11-23T08:00:00.000Z",
  window: { from: "2026-11-22T00:00:00.000Z", to: "2026-11-22T23:59:59.999Z" },
  fileLines: 3,
  summary: { matched: 1, mismatched: 0, missingInLedger: 1, missingInFile: 0, malformed: 0, refunds: { matched: 1, mismatched: 0, missingInLedger: 0 } },
  lines: [
    {
      position: 1, lineNumber: 2, status: "matched", kind: "payment", refundId: null, reason: null, externalId: EXAMPLE_PAYMENT.externalId, reference: null,
      fileAmount: "19.99", ledgerAmount: "19.99", currency: "EUR", ledgerCurrency: "EUR", fee: "0.30",
      settledAt: "2026-11-22T00:00:00.000Z", paymentId: EXAMPLE_IDS.payment, resolvedAt: null, resolutionNote: null,
    },
    {
      position: 2, lineNumber: 3, status: "missingInLedger", kind: "payment", refundId: null, reason: null, externalId: "ch_3PqZ", reference: null,
      fileAmount: "5.00", ledgerAmount: null, currency: "EUR", ledgerCurrency: null, fee: null,
      settledAt: "2026-11-22T00:00:00.000Z", paymentId: null, resolvedAt: null, resolutionNote: null,
    },
    {
      position: 3, lineNumber: 4, status: "matched", kind: "refund", refundId: EXAMPLE_REFUND.id, reason: null, externalId: EXAMPLE_REFUND.externalId,
      reference: null, fileAmount: "10.00", ledgerAmount: "10.00", currency: "EUR", ledgerCurrency: "EUR", fee: null,
      settledAt: "2026-11-23T00:00:00.000Z", paymentId: EXAMPLE_IDS.payment, resolvedAt: null, resolutionNote: null,
    },
  ],
  hasMore: false,
  nextCursor: null,
};

// POST /api/v1/reconciliation – compare a settlement CSV with the ledger and keep the report
export const createReconciliationRoute = defineRoute({
  operationId: "createReconciliation",
  method: "POST",
  path: "/reconciliation",
  summary: "Reconcile a settlement file",
  description:
    "Send your processor's settlement file as `text/csv` (up to 10 MB and 100,000 lines). Its header names the " +
    "columns `externalId` (or `reference`), `amount`, `currency`, and optionally `settledAt`, `fee` and `type`. A line " +
    "with a negative amount or a `type` of `refund` is a refund, matched to your recorded refunds by `externalId` and " +
    "counted apart (`summary.refunds`). Each payment line " +
    "is matched by `externalId` (else `reference`) and its amount compared exactly: `matched`, `mismatched` (amount, " +
    "currency, a duplicate, an ambiguous reference), `missingInLedger`, or `malformed` with its line number. " +
    "Confirmed payments created in the window (default: the file's `settledAt` range) that the file does not " +
    "list are `missingInFile`: at most 10,000 of them (a window holding more answers 422 " +
    "`reconciliation_window_too_large`: narrow `from`/`to`). Every data line is in the report once, read or " +
    "malformed (a line over 16 KiB is one malformed line). The report is kept: `GET /reconciliation/{id}` pages " +
    "through its lines.",
  tags: ["Reconciliation"],
  auth: "api_key",
  permission: "reconciliation.write",
  query: reconciliationWindowInput,
  streamedBody: {
    mediaType: "text/csv",
    maxBytes: MAX_FILE_BYTES,
    description: `A settlement CSV: a header line, then up to ${MAX_FILE_LINES} lines.`,
    example: `externalId,amount,currency,settledAt,fee\n${EXAMPLE_PAYMENT.externalId},19.99,EUR,2026-11-22,0.30\nch_3PqZ,5.00,EUR,2026-11-22,\n`,
  },
  // A streamed body cannot be fingerprinted, and a second upload makes a second report, which is harmless.
  idempotency: false,
  responses: {
    201: { description: "The report, with its first page of lines.", schema: reconciliationSchema, example: EXAMPLE_RECONCILIATION },
  },
  errors: ["reconciliation_window_too_large"],
  handler: async ({ ctx, query, stream }) => ({
    status: 201,
    body: await createReconciliation({ ctx, input: { file: stream!, window: query } }),
  }),
});

// GET /api/v1/reconciliation/{id} – a kept report, a page of its lines at a time
export const getReconciliationRoute = defineRoute({
  operationId: "getReconciliation",
  method: "GET",
  path: "/reconciliation/{id}",
  summary: "Get a reconciliation report",
  description: "Up to 1000 lines in file order (optionally one `status`); pass `nextCursor` back as `cursor` for more.",
  tags: ["Reconciliation"],
  auth: "api_key",
  permission: "reconciliation.read",
  params: z.object({ id: z.string().min(1).max(100) }),
  query: reconciliationLinesQuery,
  responses: { 200: { description: "The report.", schema: reconciliationSchema, example: EXAMPLE_RECONCILIATION } },
  errors: ["not_found"],
  handler: async ({ ctx, params, query }) => ({ status: 200, body: await getReconciliation({ ctx, input: { ...query, id: params.id } }) }),
});

export const reconciliationRoutes = [createReconciliationRoute, getReconciliationRoute];
