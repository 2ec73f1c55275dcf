import { getTableColumns, isTable } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { STATUS_GROUPS, statusLabel, type StatusKind } from "@/lib/statuses";
import * as schema from "@/server/db/schema";

/**
 * Statuses read as words from one place (src/lib/statuses.ts). Every column named like a status, in every table,
 * must take its values from one of its groups: a new status column (a refund's, a member's) or a new value fails
 * here until it has its words.
 */
const groups = Object.entries(STATUS_GROUPS) as [StatusKind, (typeof STATUS_GROUPS)[StatusKind]][];
const statusColumns = Object.entries(schema)
  .filter(([, value]) => isTable(value))
  .flatMap(([tableName, table]) =>
    Object.entries(getTableColumns(table as never)).flatMap(([columnName, column]) => {
      const values = (column as { enumValues?: string[] }).enumValues;
      return /status/i.test(columnName) && values?.length ? [{ name: `${tableName}.${columnName}`, values }] : [];
    }),
  );

describe("status words", () => {
  it("finds the status columns it checks", () => {
    expect(statusColumns.map((column) => column.name)).toEqual(expect.arrayContaining(["payments.status", "invoices.statusDetail", "reconciliationLines.status"]));
  });

  it.each(statusColumns)("$name takes its values from a group with words for each", ({ values }) => {
    const group = groups.find(([, candidate]) => [...candidate.values].sort().join() === [...values].sort().join());
    expect(group, `no group in src/lib/statuses.ts holds exactly ${values.join(", ")}`).toBeDefined();
  });

  it.each(groups)("every %s value has words of its own, not its code", (kind, group) => {
    for (const value of group.values) {
      const label = statusLabel(kind, value as never);
      expect(label.trim()).not.toBe("");
      // Words a person reads: no underscores, no camelCase humps.
      expect(label).not.toMatch(/_|[a-z][A-Z]/);
    }
  });

  it("writes the two the dashboard got wrong in words", () => {
    expect(statusLabel("invoiceDetail", "partially_paid")).toBe("partially paid");
    expect(statusLabel("reconciliationLine", "missingInFile")).toBe("missing in file");
  });
});
