import type { Executor, Transaction } from "./types";

/** A transaction object has `rollback`; the root database does not. */
function isTransaction(executor: Executor): executor is Transaction {
  return "rollback" in executor;
}

/**
 * Runs `work` in a transaction, reusing the caller's transaction when there is one,
 * so a verb composed of other verbs commits or rolls back as one.
 */
export async function withTransaction<T>(
  executor: Executor,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  if (isTransaction(executor)) return work(executor);
  return executor.transaction(work);
}
