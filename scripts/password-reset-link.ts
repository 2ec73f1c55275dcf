// npm run password:reset-link -- --email someone@example.com
// Prints a one-time password reset link (valid 30 minutes) for a dashboard login, for an operator to hand over
// when the service sends no mail (no SMTP_URL): docs/team-and-security.md, "Password reset".
import { parseArgs } from "node:util";
import { issuePasswordResetLink } from "../src/server/services/password-resets/request";
import { runAsSystem } from "./operator-command";

const { values } = parseArgs({ options: { email: { type: "string" } } });
const email = values.email;
if (!email) {
  console.error("Usage: npm run password:reset-link -- --email <email>");
  process.exit(2);
}

await runAsSystem(async (ctx) => {
  const link = await issuePasswordResetLink({ ctx, input: { email } });
  if (link) console.log(`Reset link for ${email} (works once, for 30 minutes; hand it over privately):\n${link}`);
  else {
    console.error(`No dashboard login uses ${email}.`);
    process.exitCode = 1;
  }
});
