import { MEMBER_ROLE_PERMISSIONS, MEMBER_ROLES, PERMISSIONS, STAFF_ROLE_PERMISSIONS, STAFF_ROLES, TEST_MODE_RESOURCES } from "../src/server/auth/permissions";

/** Where the generated table sits in docs/team-and-security.md (everything between is rewritten). */
export const PERMISSIONS_DOC = "docs/team-and-security.md";
const BEGIN = "<!-- permissions:begin (npm run docs:permissions writes this table from src/server/auth/permissions.ts) -->";
const END = "<!-- permissions:end -->";

/** The role × permission table, in Markdown, from the permission table itself. */
export function permissionTable(): string {
  const member = PERMISSIONS.filter((permission) => !permission.startsWith("staff."));
  const staff = PERMISSIONS.filter((permission) => permission.startsWith("staff."));
  const mark = (held: boolean) => (held ? "✓" : "");
  const memberRows = member.map((permission) => `| \`${permission}\` | ${MEMBER_ROLES.map((role) => mark(MEMBER_ROLE_PERMISSIONS[role].has(permission))).join(" | ")} |`);
  const staffRows = staff.map((permission) => `| \`${permission}\` | ${STAFF_ROLES.map((role) => mark(STAFF_ROLE_PERMISSIONS[role].has(permission))).join(" | ")} |`);
  return [
    `| Team permission | ${MEMBER_ROLES.join(" | ")} |`,
    `|---|${MEMBER_ROLES.map(() => ":-:").join("|")}|`,
    ...memberRows,
    "",
    `In test mode, \`test_mode.write\` also grants ${TEST_MODE_RESOURCES.map((resource) => `\`${resource}.write\``).join(", ")}.`,
    "",
    `| Staff permission | ${STAFF_ROLES.join(" | ")} |`,
    `|---|${STAFF_ROLES.map(() => ":-:").join("|")}|`,
    ...staffRows,
  ].join("\n");
}

/** The document with its table replaced by the current one. */
export function withPermissionTable(doc: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PERMISSIONS_DOC} lacks the ${BEGIN} … ${END} markers`);
  return `${doc.slice(0, start + BEGIN.length)}\n${permissionTable()}\n${doc.slice(end)}`;
}
