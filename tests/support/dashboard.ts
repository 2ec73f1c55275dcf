import { randomUUID } from "node:crypto";
import type { SessionUser } from "../../src/server/services/users/session-user";
import type { Runtime } from "../../src/server/runtime";
import { createCallerFactory, createTrpcContext } from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import type { TestMerchant } from "./merchants";

const createCaller = createCallerFactory(appRouter);

/**
 * The dashboard's tRPC procedures, called in-process as the signed-in `session` (null: signed out), with the
 * test-mode switch off unless `livemode: false` (docs/test-mode.md).
 */
export function dashboardAs(runtime: Runtime, session: SessionUser | null, { livemode = true }: { livemode?: boolean } = {}) {
  return createCaller(createTrpcContext(runtime, session, livemode));
}

/** A merchant user's session as the dashboard builds it (the procedures do not look the user id up). */
export function merchantSession(merchant: TestMerchant): SessionUser {
  return { id: `usr_of_${merchant.merchant.id}`, email: merchant.merchant.email, role: "merchant", merchantId: merchant.merchant.id, access: "member:owner" };
}

/** A support-staff session (the procedures do not look the user id up; audit rows name it). */
export const STAFF_SESSION: SessionUser = { id: "usr_staff", email: "support@example.com", role: "staff", merchantId: null, access: "staff:admin" };

/**
 * A dashboard form's submission of `input` (src/server/trpc/submission.ts): what procedures that create
 * something take, with a fresh idempotency key as a new form instance has.
 */
export function submitted<T>(input: T): { idempotencyKey: string; input: T } {
  return { idempotencyKey: randomUUID(), input };
}
