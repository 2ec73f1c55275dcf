/** `npm run docs:permissions`: rewrites the role × permission table in docs/team-and-security.md from the code's table. */
import { readFileSync, writeFileSync } from "node:fs";
import { PERMISSIONS_DOC, withPermissionTable } from "./permissions-doc";

writeFileSync(PERMISSIONS_DOC, withPermissionTable(readFileSync(PERMISSIONS_DOC, "utf8")));
console.log(`Wrote the permission table into ${PERMISSIONS_DOC}`);
