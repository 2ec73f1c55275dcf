import { createRefund } from "@/server/services/refunds/create";
import { getRefund } from "@/server/services/refunds/get";
import { listRefunds } from "@/server/services/refunds/list";
import { createRefundInput, listRefundsInput, refundIdInput, refundListSchema, refundSchema, updateRefundInput } from "@/server/services/refunds/schemas";
import { cancelRefund, updateRefundStatus } from "@/server/services/refunds/update";
import { EXAMPLE_CLAIM_REFUND, EXAMPLE_CURSOR, EXAMPLE_IDS, EXAMPLE_REFUND } from "@/server/openapi/examples";
import { defineRoute } from "../route";

const MOVE_ERRORS = ["not_found", "invalid_transition", "refund_conflict", "idempotency_key_reused", "idempotency_key_in_use"] as const;

// POST /api/v1/refund – record a refund of a confirmed payment, or open a claim link for the payer
export const createRefundRoute = defineRoute({
  operationId: "createRefund",
  method: "POST",
  path: "/refund",
  summary: "Refund a payment",
  description:
    "Records money going back on one of your confirmed payments (we never move money ourselves): `pending` by default, " +
    "`succeeded` for one already made, or with `claim` a link where the payer gives their destination (`requires_action`). " +
    "`amount` defaults to what is still refundable; the refunds of a payment that are not `failed` or `canceled` never " +
    "exceed it (409 `refund_exceeds_payment` with `refundable`). An `externalId` you already used answers 200 with that " +
    "refund, moved on to the `status` sent (docs/refunds.md).",
  tags: ["Refunds"],
  auth: "api_key",
  permission: "refunds.write",
  body: createRefundInput,
  bodyExample: { paymentId: EXAMPLE_IDS.payment, amount: "10.00", reason: "requested_by_customer", externalId: EXAMPLE_REFUND.externalId, status: "succeeded" },
  responses: {
    201: { description: "The refund was recorded.", schema: refundSchema, example: EXAMPLE_REFUND },
    200: { description: "A refund with this `externalId` existed; it was moved on, or already had this status.", schema: refundSchema, example: EXAMPLE_REFUND },
  },
  errors: ["payment_not_refundable", "refund_exceeds_payment", "currency_mismatch", ...MOVE_ERRORS],
  // Only database work: the stored answer commits in the refund's own transaction.
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, body }) => {
    const { refund, created } = await createRefund({ ctx, input: body });
    return { status: created ? 201 : 200, body: refund };
  },
});

// GET /api/v1/refund – the merchant's refunds, newest first
export const listRefundsRoute = defineRoute({
  operationId: "listRefunds",
  method: "GET",
  path: "/refund",
  summary: "List refunds",
  description: "Newest first, cursor-paginated: pass `nextCursor` back as `cursor` until `hasMore` is false.",
  tags: ["Refunds"],
  auth: "api_key",
  permission: "refunds.read",
  query: listRefundsInput,
  responses: {
    200: { description: "A page of refunds.", schema: refundListSchema, example: { data: [EXAMPLE_REFUND], hasMore: true, nextCursor: EXAMPLE_CURSOR } },
  },
  errors: ["invalid_cursor"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listRefunds({ ctx, input: query }) }),
});

// GET /api/v1/refund/{id} – one refund
export const getRefundRoute = defineRoute({
  operationId: "getRefund",
  method: "GET",
  path: "/refund/{id}",
  summary: "Get a refund",
  tags: ["Refunds"],
  auth: "api_key",
  permission: "refunds.read",
  params: refundIdInput,
  responses: { 200: { description: "The refund.", schema: refundSchema, example: EXAMPLE_REFUND } },
  errors: ["not_found"],
  handler: async ({ ctx, params }) => ({ status: 200, body: await getRefund({ ctx, input: params }) }),
});

// POST /api/v1/refund/{id} – record where a refund stands (pending, succeeded, failed)
export const updateRefundRoute = defineRoute({
  operationId: "updateRefund",
  method: "POST",
  path: "/refund/{id}",
  summary: "Move a refund on",
  description:
    "`requires_action → pending → succeeded | failed`; the same status again changes nothing (200, no event). Each move " +
    "sends its `refund.*` event; `succeeded` updates the payment's `amountRefunded` and `refundStatus`.",
  tags: ["Refunds"],
  auth: "api_key",
  permission: "refunds.write",
  params: refundIdInput,
  body: updateRefundInput,
  bodyExample: { status: "succeeded", externalId: EXAMPLE_REFUND.externalId },
  responses: { 200: { description: "The refund as it now stands.", schema: refundSchema, example: EXAMPLE_REFUND } },
  errors: MOVE_ERRORS,
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, params, body }) => ({ status: 200, body: await updateRefundStatus({ ctx, input: { ...body, id: params.id } }) }),
});

// POST /api/v1/refund/{id}/cancel – cancel a refund that waits for a claim or is pending
export const cancelRefundRoute = defineRoute({
  operationId: "cancelRefund",
  method: "POST",
  path: "/refund/{id}/cancel",
  summary: "Cancel a refund",
  description: "From `requires_action` (its claim link stops working) or `pending`; its amount is refundable again. Sends `refund.canceled`.",
  tags: ["Refunds"],
  auth: "api_key",
  permission: "refunds.write",
  params: refundIdInput,
  responses: {
    200: { description: "The canceled refund.", schema: refundSchema, example: { ...EXAMPLE_CLAIM_REFUND, status: "canceled", canceledAt: EXAMPLE_REFUND.updatedAt } },
  },
  errors: ["not_found", "invalid_transition", "idempotency_key_reused", "idempotency_key_in_use"],
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, params }) => ({ status: 200, body: await cancelRefund({ ctx, input: params }) }),
});

export const refundRoutes = [createRefundRoute, listRefundsRoute, getRefundRoute, updateRefundRoute, cancelRefundRoute];
