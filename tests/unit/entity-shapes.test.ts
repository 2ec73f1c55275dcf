import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { routes } from "../../src/server/http/routes";
import { generateOpenApiDocument } from "../../src/server/openapi/document";
import { apiKeySchema } from "../../src/server/services/api-keys/schemas";
import { eventSchema } from "../../src/server/services/events/schemas";
import { invoiceSchema } from "../../src/server/services/invoices/schemas";
import { merchantSchema } from "../../src/server/services/merchants/schemas";
import { paymentSchema } from "../../src/server/services/payments/schemas";
import { publishedKeySchema } from "../../src/server/services/published-keys/schemas";
import { reconciliationLineSchema, reconciliationSchema } from "../../src/server/services/reconciliations/schemas";
import { refundSchema } from "../../src/server/services/refunds/schemas";
import { endpointSchema } from "../../src/server/services/webhook-endpoints/schemas";
import { deliverySchema } from "../../src/server/services/webhooks/schemas";

/**
 * Each entity's shape is declared once, derived from its table (src/server/services/README.md, "Entity shapes"):
 * the OpenAPI document refers to it wherever the entity appears, and the dashboard infers it from the tRPC
 * routers' outputs instead of declaring it again.
 */
const entities: Record<string, z.ZodObject> = {
  Payment: paymentSchema,
  Merchant: merchantSchema,
  ApiKey: apiKeySchema,
  PublishedKey: publishedKeySchema,
  Invoice: invoiceSchema,
  Event: eventSchema,
  Delivery: deliverySchema,
  WebhookEndpoint: endpointSchema,
  Reconciliation: reconciliationSchema,
  ReconciliationLine: reconciliationLineSchema,
  Refund: refundSchema,
};

type JsonSchema = { $ref?: string; properties?: Record<string, unknown>; [key: string]: unknown };

describe("entity shapes in the OpenAPI document", () => {
  const document = generateOpenApiDocument(routes);
  const components = document.components?.schemas as Record<string, JsonSchema>;

  it("each entity is the component named by its schema, with the schema's fields", () => {
    for (const [name, schema] of Object.entries(entities)) {
      expect(z.globalRegistry.get(schema)?.id, name).toBe(name);
      expect(Object.keys(components[name]?.properties ?? {}), name).toEqual(Object.keys(schema.shape));
    }
  });

  it("every other place an entity appears is a reference to its component, never a copy of its fields", () => {
    const { paths, webhooks } = document;
    const copies = Object.entries(components).flatMap(([name, component]) => copiesWithin(component, `components.schemas.${name}`));
    expect([...copies, ...copiesWithin({ paths, webhooks }, "")]).toEqual([]);
  });

  it("the check above finds a copy when there is one", () => {
    const inline = z.toJSONSchema(z.object({ invoice: z.object(invoiceSchema.shape) }));
    expect(copiesWithin({ paths: { "/example": { get: { schema: inline } } } }, "")).toEqual([".paths./example.get.schema.properties.invoice copies Invoice"]);
  });
});

/** Object schemas under `node` (not `node` itself, a component may extend an entity) that have every field of an entity. */
function copiesWithin(node: unknown, where: string, root = true): string[] {
  if (!node || typeof node !== "object") return [];
  const properties = (node as JsonSchema).properties;
  const copies =
    !root && properties && typeof properties === "object"
      ? Object.entries(entities).flatMap(([name, schema]) => (Object.keys(schema.shape).every((field) => field in properties) ? [`${where} copies ${name}`] : []))
      : [];
  return [...copies, ...Object.entries(node).flatMap(([key, value]) => copiesWithin(value, `${where}.${key}`, false))];
}

const COMPONENTS_DIR = path.resolve(import.meta.dirname, "../../src/components");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Every object type the file declares (interfaces and type literals), with its property names. */
function declaredObjectTypes(file: string): { name: string; properties: string[] }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: { name: string; properties: string[] }[] = [];
  const visit = (node: ts.Node, name: string) => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
      const properties = node.members.flatMap((member) => (member.name && ts.isIdentifier(member.name) ? [member.name.text] : []));
      found.push({ name: ts.isInterfaceDeclaration(node) ? node.name.text : name, properties });
    }
    const child = ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node) ? node.name.text : name;
    node.forEachChild((inner) => visit(inner, child));
  };
  visit(source, "(inline)");
  return found;
}

/** Declared fields that an entity has too: three or more, making up at least half of the declaration, is a copy. */
function copiedEntity(properties: string[]): string | undefined {
  for (const [name, schema] of Object.entries(entities)) {
    const shared = properties.filter((property) => property in schema.shape);
    if (shared.length >= 3 && shared.length * 2 >= properties.length) return name;
  }
  return undefined;
}

describe("entity shapes in the dashboard", () => {
  const files = sourceFiles(COMPONENTS_DIR);

  it("components import no server schema: their types come from the tRPC routers' outputs (inferRouterOutputs)", () => {
    const importing = files.filter((file) => /from "@\/server\/services\//.test(readFileSync(file, "utf8")));
    expect(importing.map((file) => path.relative(COMPONENTS_DIR, file))).toEqual([]);
  });

  it("components declare no object type with an entity's fields", () => {
    const copies = files.flatMap((file) =>
      declaredObjectTypes(file).flatMap(({ name, properties }) => {
        const entity = copiedEntity(properties);
        return entity ? [`${path.relative(COMPONENTS_DIR, file)}: ${name} copies ${entity}`] : [];
      }),
    );
    expect(copies).toEqual([]);
  });

  it("the check above recognises a hand-written copy", () => {
    expect(copiedEntity(["id", "status", "url", "attemptCount", "lastStatusCode"])).toBe("Delivery");
    expect(copiedEntity(["id", "type", "createdAt", "deliveries"])).toBe("Event");
    expect(copiedEntity(["status", "currency", "from", "to", "q", "reconciled"])).toBeUndefined();
  });
});
