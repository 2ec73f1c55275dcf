import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PERMISSIONS_DOC, withPermissionTable } from "../../scripts/permissions-doc";

describe("docs/team-and-security.md's role × permission table", () => {
  it("is the code's table (npm run docs:permissions rewrites it)", () => {
    const doc = readFileSync(PERMISSIONS_DOC, "utf8");
    expect(withPermissionTable(doc), "run npm run docs:permissions").toBe(doc);
  });
});
