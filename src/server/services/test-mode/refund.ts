import { z } from "zod";
import { livemodeOf, requireMerchantScope, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { assertClaimable } from "../refunds/claim";
import { isCryptoClaim } from "../refunds/claim-view";
import { moveLockedRefund } from "../refunds/move";
import { refundIdInput, type Refund } from "../refunds/schemas";
import { withLockedRefund } from "../refunds/update";
import { validateInput } from "../validate";

export const simulateClaimInput = z.strictObject({
  destination: z.string().trim().min(1).max(200).default("TEST-DESTINATION").describe("What the simulated payer enters; default a placeholder."),
  network: z.string().min(1).max(64).optional().describe("For crypto currencies; default `test`."),
});
export const simulateSettleInput = z
  .strictObject({
    status: z.enum(["succeeded", "failed"]).describe("The processor's outcome."),
    failureReason: z.string().min(1).max(500).optional().describe("With `failed`; default `simulated_failure`."),
  })
  .superRefine((input, ctx) => {
    if (input.failureReason && input.status !== "failed") ctx.addIssue({ code: "custom", path: ["failureReason"], message: "only with status failed" });
  });

function requireTestMode(ctx: ServiceContext): void {
  if (livemodeOf(ctx)) throw new ServiceError("test_mode_only", "Simulated refunds need an sk_test_ key; live money is never made up.");
}

/**
 * Test mode (docs/test-mode.md): the payer claims a test refund's link, exactly as the claim page would (the same
 * checks, `refund.claimed`), without a browser.
 */
export async function simulateRefundClaim({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof simulateClaimInput> & { id: string } }): Promise<Refund> {
  requireTestMode(ctx);
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(refundIdInput, { id: input.id }, "params");
  const data = validateInput(simulateClaimInput, { destination: input.destination, network: input.network }, "body");
  return withLockedRefund(ctx, scope, id, async (txCtx, payment, refund) => {
    assertClaimable(refund, txCtx.now());
    const network = isCryptoClaim(refund.currency) ? (data.network ?? "test") : (data.network ?? null);
    const fields = { destination: data.destination, destinationNetwork: network, claimedAt: txCtx.now() };
    return (await moveLockedRefund(txCtx, payment, refund, "pending", { fields, event: "refund.claimed" })).refund;
  });
}

/** Test mode: the processor's outcome for a pending test refund, as `POST refund/{id}` would record it. */
export async function simulateRefundSettle({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof simulateSettleInput> & { id: string } }): Promise<Refund> {
  requireTestMode(ctx);
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(refundIdInput, { id: input.id }, "params");
  const data = validateInput(simulateSettleInput, { status: input.status, failureReason: input.failureReason }, "body");
  return withLockedRefund(ctx, scope, id, async (txCtx, payment, refund) => {
    const fields = data.status === "failed" ? { failureReason: data.failureReason ?? "simulated_failure" } : {};
    return (await moveLockedRefund(txCtx, payment, refund, data.status, { fields })).refund;
  });
}
