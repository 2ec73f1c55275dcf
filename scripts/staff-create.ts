// STAFF_PASSWORD='…' npm run staff:create -- --email support@example.com [--name 'Ada'] [--role support|admin]
// Creates a support-staff login (there is no public sign-up for staff). Without STAFF_PASSWORD, a terminal
// is prompted for the password (not echoed). `--password '…'` still works but warns: argv is public.
import { parseArgs } from "node:util";
import { createStaffUser } from "../src/server/services/users/create-staff";
import { runAsSystem } from "./operator-command";
import { readStaffPassword } from "./staff-password";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
});
const usage = "Usage: STAFF_PASSWORD=<at least 12 characters> npm run staff:create -- --email <email> [--name <name>] [--role support|admin (default admin)]";
const email = values.email;
if (!email) {
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

await runAsSystem(async (ctx) => {
  const user = await createStaffUser({ ctx, input: { email, password, name: values.name, role: values.role as "support" | "admin" | undefined } });
  console.log(`Created staff user ${user.email} (${user.id}, ${user.access}).`);
});
