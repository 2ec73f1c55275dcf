const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A list's `createdFrom`/`createdTo` from the UTC days a filter form holds (`YYYY-MM-DD`, as `<input type="date">`
 * gives them): `from` starts its day, `to` ends its day (the list's `createdTo` is exclusive). Anything else is no bound.
 */
export function createdRangeOfDays(from?: string, to?: string): { createdFrom?: string; createdTo?: string } {
  return {
    createdFrom: from && ISO_DAY.test(from) ? `${from}T00:00:00.000Z` : undefined,
    createdTo: to && ISO_DAY.test(to) ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString() : undefined,
  };
}
