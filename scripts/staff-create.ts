// npm run staff:create -- --email support@example.com --password '…' [--name 'Ada']
// Creates a support-staff login (there is no public sign-up for staff). The password may also come from
// the STAFF_PASSWORD environment variable, to keep it out of shell history.
import { parseArgs } from "node:util";
import { getEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { openDatabase } from "../src/server/db/open";
import { createLogger } from "../src/server/log";
import { createRuntime } from "../src/server/runtime";
import { createServiceContext } from "../src/server/services/create-context";
import { isServiceError } from "../src/server/services/errors";
import { createStaffUser } from "../src/server/services/users/create-staff";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
});
const password = values.password ?? process.env.STAFF_PASSWORD;
if (!values.email || !password) {
  console.error("Usage: npm run staff:create -- --email <email> --password <at least 12 characters> [--name <name>]");
  process.exit(2);
}

const env = getEnv();
const runtime = createRuntime({ env, database: await openDatabase(env), log: createLogger(env.LOG_LEVEL) });
try {
  const ctx = createServiceContext(runtime, { type: "system" }, newId("request"));
  const user = await createStaffUser({ ctx, input: { email: values.email, password, name: values.name } });
  console.log(`Created staff user ${user.email} (${user.id}).`);
} catch (error) {
  if (!isServiceError(error)) throw error;
  console.error(error.errors?.map((field) => `${field.path}: ${field.message}`).join("\n") || error.detail);
  process.exitCode = 1;
} finally {
  await runtime.close();
}
