// npm run audit:verify [-- --merchant mer_…]
// Walks the audit log's hash chains (every merchant's, and the one of entries naming no merchant) and names, per
// chain, the first entry altered or removed. Exit code 1 when any chain is broken, 0 when all are intact
// (docs/team-and-security.md, "Audit log"). Read-only; with the embedded database, stop the server first.
import { parseArgs } from "node:util";
import { describeBreak, verifyAuditChains } from "../src/server/db/sql/audit-verify";
import { openOperatorDatabase } from "./operator-command";

const { values } = parseArgs({ options: { merchant: { type: "string" } } });
// Exit code 2 when the database cannot be opened: 1 says a chain is broken.
const database = await openOperatorDatabase(undefined, 2);
try {
  const reports = await verifyAuditChains(database.db, { merchantId: values.merchant });
  let broken = 0;
  for (const report of reports) {
    if (report.firstBreak) {
      broken += 1;
      console.log(`BROKEN ${describeBreak(report.firstBreak)}`);
    } else {
      console.log(`ok ${report.merchantId ?? "(no merchant)"}: ${report.entries} entries, head ${report.headHash ?? "-"}`);
    }
  }
  console.log(broken === 0 ? `All ${reports.length} chains intact.` : `${broken} of ${reports.length} chains broken.`);
  process.exitCode = broken === 0 ? 0 : 1;
} finally {
  await database.close();
}
