/**
 * A stand-in for the web process on an embedded database (tests/unit/data-dir-lock.test.ts): opens DATA_DIR
 * the way the server does, and writes through the service layer on command. Lines on stdin:
 * `merchant <email>` registers a merchant; `payments <email> <n>` records n payments for it. Each command is
 * answered `ok <detail>` on stdout once committed; `ready <pid>` is printed when the database is open. End of stdin:
 * close the database and exit, as the server does on SIGTERM.
 */
import { createInterface } from "node:readline";
import { getEnv } from "../../src/env";
import { newId } from "../../src/lib/ids";
import { openDatabase } from "../../src/server/db/open";
import { createLogger } from "../../src/server/log";
import { createRuntime } from "../../src/server/runtime";
import { createServiceContext } from "../../src/server/services/create-context";
import { registerMerchant } from "../../src/server/services/merchants/register";
import { confirmPayment } from "../../src/server/services/payments/confirm";

const env = getEnv();
const runtime = createRuntime({ env, database: await openDatabase(env), log: createLogger("silent") });
const merchantIds = new Map<string, string>();
console.log(`ready ${process.pid}`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, email = "", count = "0"] = line.trim().split(" ");
  if (command === "merchant") {
    const ctx = createServiceContext(runtime, { type: "anonymous" }, newId("request"));
    const created = await registerMerchant({ ctx, input: { name: "Held shop", email, password: "correct horse battery" } });
    merchantIds.set(email, created.merchant.id);
    console.log(`ok ${created.merchant.id}`);
  } else if (command === "payments") {
    const merchantId = merchantIds.get(email)!;
    const ctx = createServiceContext(runtime, { type: "system", merchantId }, newId("request"));
    for (let index = 0; index < Number(count); index++) {
      await confirmPayment({ ctx, input: { externalId: `held_${index}`, amount: "10.00", currency: "USD" } });
    }
    console.log(`ok ${count}`);
  }
}
await runtime.close();
