import { handlers } from "@/server/auth/auth";

// /api/auth/* – next-auth's own endpoints (session, csrf, sign-in callback, sign-out).
export const { GET, POST } = handlers;
