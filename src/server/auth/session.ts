/**
 * The signed-in dashboard user, as the tRPC context and server components see it.
 * `merchantId` is set for merchant users; staff have none.
 */
export interface SessionUser {
  id: string;
  email: string;
  role: "merchant" | "staff";
  merchantId: string | null;
}
