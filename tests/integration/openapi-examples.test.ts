import { createParser } from "eventsource-parser";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { routes } from "../../src/server/http/routes";
import { generateOpenApiDocument } from "../../src/server/openapi/document";
import { documentedErrorCodes, problemExample, problemSchema } from "../../src/server/openapi/problem";
import { eventBodyExample, eventBodySchema, eventTypes } from "../../src/server/openapi/webhooks";

const document = JSON.parse(JSON.stringify(generateOpenApiDocument(routes)));

describe("examples validate with the zod schemas that validate the real traffic", () => {
  it.each(routes.filter((route) => route.body).map((route) => [route.operationId, route] as const))(
    "%s: its request body example",
    (_id, route) => {
      expect(route.bodyExample, "a route that takes a body documents an example of it").toBeDefined();
      expect(issuesOf(route.body!.safeParse(route.bodyExample))).toEqual([]);
    },
  );

  it.each(
    routes.flatMap((route) =>
      Object.entries(route.responses)
        .filter(([, declared]) => declared.schema)
        .map(([status, declared]) => [`${route.operationId} ${status}`, route, declared] as const),
    ),
  )("%s: its response example", (_name, route, declared) => {
    // The OpenAPI document's own response is generated, not exemplified: it would be a copy of itself.
    if (route.operationId === "getOpenApiDocument") return;
    expect(declared.example, "a documented response body has an example").toBeDefined();
    if (declared.mediaType === "text/event-stream") {
      // A stream's example is the wire text: each event's `data` is one value of the schema.
      const data: string[] = [];
      createParser({ onEvent: (message) => data.push(message.data) }).feed(String(declared.example));
      expect(data.length).toBeGreaterThan(0);
      for (const value of data) expect(issuesOf(declared.schema!.safeParse(JSON.parse(value)))).toEqual([]);
      return;
    }
    expect(issuesOf(declared.schema!.safeParse(declared.example))).toEqual([]);
  });

  it.each(eventTypes.map((type) => [type]))("webhook %s: its example body", (type) => {
    expect(issuesOf(eventBodySchema(type).safeParse(eventBodyExample(type)))).toEqual([]);
  });

  it("every problem example, one per documented code", () => {
    for (const code of new Set(routes.flatMap(documentedErrorCodes))) {
      expect(issuesOf(problemSchema.safeParse(problemExample(code))), code).toEqual([]);
    }
  });
});

describe("examples validate against the document's own JSON Schemas", () => {
  // Formats are left to the zod checks above: this pass proves the generated schemas and the examples
  // printed next to them agree, including the ones inside schemas (`.meta({ example })`).
  const ajv = new Ajv2020({ strict: false, validateFormats: false, validateSchema: false, allErrors: true });
  ajv.addSchema(document, "openapi");
  const found = examplesIn(document);

  it("finds examples to check", () => {
    expect(found.length).toBeGreaterThan(routes.length);
  });

  it.each(found.map((example) => [example.at, example] as const))("%s", (_at, example) => {
    const validate = ajv.getSchema(`openapi#${example.schemaPointer}`);
    expect(validate, `no schema at ${example.schemaPointer}`).toBeDefined();
    validate!(example.value);
    expect(validate!.errors ?? []).toEqual([]);
  });
});

interface FoundExample {
  at: string;
  schemaPointer: string;
  value: unknown;
}

/**
 * Media types, parameters and headers carry `example`/`examples` next to their `schema`; schemas carry
 * `example` or a JSON Schema `examples` array themselves.
 */
function examplesIn(node: unknown, pointer = ""): FoundExample[] {
  if (!node || typeof node !== "object") return [];
  const found: FoundExample[] = [];
  const object = node as Record<string, unknown>;
  const isSchema = !("schema" in object) && ("type" in object || "$ref" in object || "allOf" in object || "anyOf" in object);
  const schemaPointer = "schema" in object ? `${pointer}/schema` : pointer;
  if ("schema" in object || isSchema) {
    if ("example" in object) found.push({ at: `${pointer}/example`, schemaPointer, value: object.example });
    const examples = object.examples;
    if (Array.isArray(examples)) {
      examples.forEach((value, i) => found.push({ at: `${pointer}/examples/${i}`, schemaPointer, value }));
    } else if (examples && typeof examples === "object") {
      for (const [name, entry] of Object.entries(examples as Record<string, { value?: unknown }>)) {
        found.push({ at: `${pointer}/examples/${name}`, schemaPointer, value: entry.value });
      }
    }
  }
  for (const [key, child] of Object.entries(object)) {
    if (key === "example" || key === "examples") continue;
    found.push(...examplesIn(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  }
  return found;
}

function issuesOf(result: { success: boolean; error?: { issues: unknown[] } }) {
  return result.success ? [] : result.error!.issues;
}
