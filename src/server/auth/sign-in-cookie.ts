import { cookies } from "next/headers";
import { getEnv } from "@/env";

/**
 * The sign-in in progress between its steps (password, then a second factor or setting one up): the token of its
 * challenge (services/sign-in/challenges.ts) in an httpOnly cookie scoped to the sign-in pages' actions, so page
 * scripts never see it. It grants nothing alone: the challenge still needs its second factor, expires in minutes
 * and works once.
 */
const COOKIE = "mps_sign_in";

export async function keepSignInToken(token: string, maxAgeSeconds = 15 * 60): Promise<void> {
  (await cookies()).set(COOKIE, token, { httpOnly: true, sameSite: "lax", path: "/", maxAge: maxAgeSeconds, secure: getEnv().PUBLIC_BASE_URL.startsWith("https://") });
}

export async function signInToken(): Promise<string | null> {
  return (await cookies()).get(COOKIE)?.value ?? null;
}

export async function forgetSignInToken(): Promise<void> {
  (await cookies()).delete(COOKIE);
}
