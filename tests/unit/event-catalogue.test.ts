import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { eventTypes } from "../../src/lib/event-types";

/*
 * Every concept has one source: the event catalogue is `src/lib/event-types.ts`, and every list of event types —
 * a form's checkboxes, a filter, validation, the OpenAPI document, an example — is derived from it. A list
 * written again elsewhere drifts: the dashboard's own five-type list once unsubscribed merchants from invoice
 * events on "Save". This scan fails on any literal in src/ that names two or more catalogue types: an array, a
 * union type, a `switch`'s cases or an object's keys. The one exception is a map keyed by every type (a
 * `Record<EventType, …>`, which the compiler keeps complete): it documents the catalogue, it cannot drift from it.
 */

const SRC = path.resolve(import.meta.dirname, "../../src");
const CATALOGUE = path.join(SRC, "lib/event-types.ts");
const names = new Set<string>(eventTypes);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [full] : [];
  });
}

/** The catalogue names a node spells out as string literals (elements, union members, keys). */
function namedTypes(nodes: readonly ts.Node[]): string[] {
  return nodes.flatMap((node) => {
    if (ts.isLiteralTypeNode(node)) node = node.literal;
    if (ts.isPropertyAssignment(node) || ts.isCaseClause(node)) node = ts.isCaseClause(node) ? node.expression : node.name;
    return (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text) ? [node.text] : [];
  });
}

interface Copy {
  file: string;
  line: number;
  types: string[];
}

function copiesIn(file: string, text = readFileSync(file, "utf8")): Copy[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Copy[] = [];
  const visit = (node: ts.Node) => {
    let listed: string[] = [];
    if (ts.isArrayLiteralExpression(node)) listed = namedTypes(node.elements);
    else if (ts.isUnionTypeNode(node)) listed = namedTypes(node.types);
    else if (ts.isCaseBlock(node)) listed = namedTypes(node.clauses);
    else if (ts.isObjectLiteralExpression(node)) {
      listed = namedTypes(node.properties);
      if (new Set(listed).size === names.size) listed = []; // keyed by the whole catalogue
    }
    const distinct = [...new Set(listed)];
    if (distinct.length >= 2) found.push({ file: path.relative(SRC, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, types: distinct });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the event catalogue (src/lib/event-types.ts)", () => {
  it("is the only list of event types in src/", () => {
    const copies = sourceFiles(SRC)
      .filter((file) => file !== CATALOGUE)
      .flatMap((file) => copiesIn(file));
    expect(copies, "derive these from src/lib/event-types.ts").toEqual([]);
  });

  it("finds the copies it is for: the form's old list, a union type, a switch, an object of flags; not a full Record", () => {
    const probe = [
      'const EVENT_TYPES = ["payment.pending", "payment.confirmed", "webhook.test"] as const;',
      'type Paid = "invoice.paid" | "invoice.voided";',
      'function label(type: string) { switch (type) { case "invoice.paid": return 1; case "invoice.expired": return 2; } }',
      'const flags = { "payment.failed": true, "payment.pending": false };',
      `const docs = { ${eventTypes.map((type) => `"${type}": 1`).join(", ")} };`,
      'const one = ["invoice.paid"];',
    ].join("\n");
    const found = copiesIn(path.join(SRC, "probe.tsx"), probe).map((copy) => [copy.line, copy.types]);
    expect(found).toEqual([
      [1, ["payment.pending", "payment.confirmed", "webhook.test"]],
      [2, ["invoice.paid", "invoice.voided"]],
      [3, ["invoice.paid", "invoice.expired"]],
      [4, ["payment.failed", "payment.pending"]],
    ]);
  });
});
