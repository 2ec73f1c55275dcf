// STAFF_PASSWORD='…' npm run staff:create -- --email support@example.com [--name 'Ada'] [--role support|admin]
// Creates a support-staff login (there is no public sign-up for staff). Without STAFF_PASSWORD, a terminal
// is prompted for the password (not echoed). `--password '…'` still works but warns: argv is public.
import { parseArgs } from "node:util";
import { getEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { DataDirInUseError } from "../src/server/db/data-dir-lock";
import { openDatabase } from "../src/server/db/open";
import { createLogger } from "../src/server/log";
import { createRuntime } from "../src/server/runtime";
import { createServiceContext } from "../src/server/services/create-context";
import { isServiceError } from "../src/server/services/errors";
import { createStaffUser } from "../src/server/services/users/create-staff";
import { readStaffPassword } from "./staff-password";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
});
const usage = "Usage: STAFF_PASSWORD=<at least 12 characters> npm run staff:create -- --email <email> [--name <name>] [--role support|admin (default admin)]";
if (!values.email) {
  console.error(usage);
  process.exit(2);
}
const password = await readStaffPassword({
  flag: values.password,
  env: process.env.STAFF_PASSWORD,
  input: process.stdin,
  messages: process.stderr,
});
if (!password) {
  console.error(`${usage}\n(or run it in a terminal without STAFF_PASSWORD to be prompted)`);
  process.exit(2);
}

const env = getEnv();
const database = await openDatabase(env).catch((error: unknown) => {
  // The embedded database is open in another process (the server): say so and what to do, touching nothing.
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(error.message);
  process.exit(1);
});
const runtime = createRuntime({ env, database, log: createLogger(env.LOG_LEVEL) });
try {
  const ctx = createServiceContext(runtime, { type: "system" }, newId("request"));
  const user = await createStaffUser({ ctx, input: { email: values.email, password, name: values.name, role: values.role as "support" | "admin" | undefined } });
  console.log(`Created staff user ${user.email} (${user.id}, ${user.access}).`);
} catch (error) {
  if (!isServiceError(error)) throw error;
  console.error(error.errors?.map((field) => `${field.path}: ${field.message}`).join("\n") || error.detail);
  process.exitCode = 1;
} finally {
  await runtime.close();
}
