import type { TestRuntime } from "../../support/runtime";
import type { ServiceContext } from "../../../src/server/services/context";

/** A service context acting for one merchant, as the worker or a payment verb would hold it. */
export function merchantContext(runtime: TestRuntime, merchantId: string): ServiceContext {
  return {
    requestId: "req_test",
    db: runtime.database.db,
    reader: runtime.database.db,
    actor: { type: "system", merchantId },
    log: runtime.log,
    env: runtime.env,
    now: runtime.now,
  };
}
