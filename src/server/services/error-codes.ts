/**
 * The one error vocabulary: every `code` a caller can receive, its HTTP status and what to do about it.
 * REST turns these into problem+json, tRPC into TRPCErrors, and docs/errors.md lists them (a test keeps
 * the three in step).
 */
export const ERROR_CODES = {
  // 400
  validation_failed: { status: 400, title: "Validation failed" },
  malformed_json: { status: 400, title: "Malformed JSON" },
  invalid_cursor: { status: 400, title: "Invalid cursor" },
  reset_link_invalid: { status: 400, title: "Reset link invalid or expired" },
  invitation_invalid: { status: 400, title: "Invitation invalid or expired" },
  // 401, 403, 404, 405
  unauthenticated: { status: 401, title: "Authentication required" },
  invalid_api_key: { status: 401, title: "Invalid API key" },
  invalid_credentials: { status: 401, title: "Invalid credentials" },
  invalid_second_factor: { status: 401, title: "Invalid second factor" },
  sign_in_expired: { status: 401, title: "Sign-in expired" },
  forbidden: { status: 403, title: "Forbidden" },
  insufficient_scope: { status: 403, title: "Insufficient scope" },
  test_mode_only: { status: 403, title: "Test mode only" },
  not_found: { status: 404, title: "Not found" },
  invoice_not_found: { status: 404, title: "Invoice not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  // 409
  email_taken: { status: 409, title: "Email already registered" },
  already_member: { status: 409, title: "Already a member" },
  last_owner: { status: 409, title: "Last owner" },
  invalid_transition: { status: 409, title: "Invalid status transition" },
  payment_conflict: { status: 409, title: "Payment conflict" },
  currency_mismatch: { status: 409, title: "Currency mismatch" },
  invoice_not_payable: { status: 409, title: "Invoice not payable" },
  order_id_taken: { status: 409, title: "Order id taken" },
  delivery_not_failed: { status: 409, title: "Delivery is not failed" },
  webhook_url_missing: { status: 409, title: "No webhook URL configured" },
  default_endpoint: { status: 409, title: "Default endpoint" },
  too_many_endpoints: { status: 409, title: "Too many endpoints" },
  idempotency_key_in_use: { status: 409, title: "Idempotency key in use" },
  api_key_inactive: { status: 409, title: "API key revoked or already rolled" },
  second_factor_exists: { status: 409, title: "Second factor already set up" },
  second_factor_required: { status: 409, title: "Second factor required" },
  reconciliation_line_without_payment: { status: 409, title: "Reconciliation line names no payment" },
  payment_not_refundable: { status: 409, title: "Payment not refundable" },
  refund_exceeds_payment: { status: 409, title: "Refund exceeds payment" },
  refund_conflict: { status: 409, title: "Refund conflict" },
  refund_already_claimed: { status: 409, title: "Refund already claimed" },
  // 410
  refund_claim_expired: { status: 410, title: "Refund claim expired" },
  // 413, 415, 422
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  idempotency_key_reused: { status: 422, title: "Idempotency key reused" },
  private_key_material: { status: 422, title: "Private key material refused" },
  unsupported_key: { status: 422, title: "Unsupported key" },
  too_many_keys: { status: 422, title: "Too many keys" },
  key_too_large: { status: 422, title: "Key too large" },
  webhook_url_rejected: { status: 422, title: "Webhook URL rejected" },
  recover_window_too_large: { status: 422, title: "Recover window too large" },
  reconciliation_window_too_large: { status: 422, title: "Reconciliation window too large" },
  // 429, 500, 503
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal server error" },
  service_unavailable: { status: 503, title: "Service unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
