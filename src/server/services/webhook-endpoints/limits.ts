/**
 * Endpoints a merchant may have (docs/webhooks.md, "Endpoints"), the default one included: Stripe's limit too.
 * Every event is written with one delivery per endpoint at most, in one statement (events/emit.ts).
 */
export const MAX_ENDPOINTS_PER_MERCHANT = 16;
