/**
 * The endpoints whose backlog this worker is draining up to their bound. When one of their attempts ends, a claim
 * could take its freed slot — but a claim per freed slot (a transaction of its own for one delivery) is what
 * held one endpoint's drain to ~150/s. So a freed slot waits for company: the worker claims again once a quarter
 * of the bound has freed since the last claim, or when the endpoint has nothing left in flight here (another
 * worker may hold the rest of its bound). Any claim, for whatever reason, takes every freed slot at once.
 */
export function createHeldBackEndpoints(perEndpoint: number) {
  const batch = Math.max(1, Math.floor(perEndpoint / 4));
  const endpoints = new Map<string, { inFlight: number; freed: number }>();
  return {
    started(endpoint: string) {
      const entry = endpoints.get(endpoint);
      if (entry) entry.inFlight += 1;
      else endpoints.set(endpoint, { inFlight: 1, freed: 0 });
    },
    /** The attempt ended; true when its endpoint has freed enough of a held-back backlog to claim for. */
    ended(endpoint: string, moreDue: boolean): boolean {
      const entry = endpoints.get(endpoint)!;
      entry.inFlight -= 1;
      if (entry.inFlight === 0) endpoints.delete(endpoint);
      if (!moreDue) return false;
      entry.freed += 1;
      return entry.freed >= batch || entry.inFlight === 0;
    },
    /** A claim is about to run: it takes every slot freed so far. */
    claiming() {
      for (const entry of endpoints.values()) entry.freed = 0;
    },
  };
}
