// npm run password:reset-link -- --email someone@example.com
// Prints a one-time password reset link (valid 30 minutes) for a dashboard login, for an operator to hand over
// when the service sends no mail (no SMTP_URL): docs/team-and-security.md, "Password reset".
import { parseArgs } from "node:util";
import { getEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { DataDirInUseError } from "../src/server/db/data-dir-lock";
import { openDatabase } from "../src/server/db/open";
import { createLogger } from "../src/server/log";
import { createRuntime } from "../src/server/runtime";
import { createServiceContext } from "../src/server/services/create-context";
import { isServiceError } from "../src/server/services/errors";
import { issuePasswordResetLink } from "../src/server/services/password-resets/request";

const { values } = parseArgs({ options: { email: { type: "string" } } });
if (!values.email) {
  console.error("Usage: npm run password:reset-link -- --email <email>");
  process.exit(2);
}

const env = getEnv();
const database = await openDatabase(env).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(error.message);
  process.exit(1);
});
const runtime = createRuntime({ env, database, log: createLogger(env.LOG_LEVEL) });
try {
  const link = await issuePasswordResetLink({ ctx: createServiceContext(runtime, { type: "system" }, newId("request")), input: { email: values.email } });
  if (link) console.log(`Reset link for ${values.email} (works once, for 30 minutes; hand it over privately):\n${link}`);
  else {
    console.error(`No dashboard login uses ${values.email}.`);
    process.exitCode = 1;
  }
} catch (error) {
  if (!isServiceError(error)) throw error;
  console.error(error.errors?.map((field) => `${field.path}: ${field.message}`).join("\n") || error.detail);
  process.exitCode = 1;
} finally {
  await runtime.close();
}
