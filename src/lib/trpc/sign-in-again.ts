/**
 * Where a tab goes when a call is refused because its session has ended (signed out in another tab, a password
 * change elsewhere, a copied cookie revoked: docs/dashboard.md, "Sessions"): the sign-in page, back here after.
 * Nowhere when the tab is on the sign-in page already: a query that was in flight when this tab signed out answers
 * 401 after the tab has arrived there, and sending it there again reloaded the page under the user's next click
 * (and asked to come back to the sign-in page once signed in).
 */
export function signInAgainUrl(here: { pathname: string; search: string }): string | null {
  if (here.pathname === "/login") return null;
  return `/login?callbackUrl=${encodeURIComponent(here.pathname + here.search)}`;
}
