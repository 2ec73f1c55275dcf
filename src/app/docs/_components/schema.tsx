import { Inline } from "./inline";
import styles from "../docs.module.css";

/** A JSON Schema 2020-12 node as the generator writes them (OpenAPI 3.1); only what is rendered is typed. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  format?: string;
  pattern?: string;
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

const MAX_DEPTH = 6;

export function refName(ref: string): string {
  return ref.split("/").at(-1)!;
}

/** A one-line type: `string`, `"a" | "b"`, `array of Payment`, `string | null`. */
export function typeLabel(schema: SchemaNode): React.ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  if (schema.const !== undefined) return <code>{JSON.stringify(schema.const)}</code>;
  if (schema.enum) return <code>{schema.enum.map((value) => JSON.stringify(value)).join(" | ")}</code>;
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return joined(union.map(typeLabel), " | ");
  if (schema.allOf) return joined(schema.allOf.map(typeLabel), " & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("array") && schema.items) return <>array of {typeLabel(schema.items)}</>;
  if (types.length === 0) return "any";
  return types.map((type) => (type === "string" && schema.format ? `string (${schema.format})` : type)).join(" | ");
}

function joined(parts: React.ReactNode[], separator: string) {
  return parts.map((part, i) => (
    <span key={i}>
      {i > 0 ? separator : null}
      {part}
    </span>
  ));
}

export function constraints(schema: SchemaNode): string[] {
  const notes: string[] = [];
  const range = (min?: number, max?: number, unit = "") =>
    min !== undefined && max !== undefined ? `${min}–${max}${unit}` : min !== undefined ? `≥ ${min}${unit}` : max !== undefined ? `≤ ${max}${unit}` : null;
  const length = range(schema.minLength, schema.maxLength, " chars");
  // zod writes ±MAX_SAFE_INTEGER as the bounds of any integer: not worth printing.
  const bound = (n?: number) => (n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);
  const value = range(bound(schema.minimum), bound(schema.maximum));
  const items = range(schema.minItems, schema.maxItems, " items");
  if (length) notes.push(length);
  if (value) notes.push(value);
  if (items) notes.push(items);
  if (schema.pattern) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The fields of an object schema (or what an array holds), nested; references link to the Schemas section. */
export function SchemaView({ schema, depth = 0 }: { schema: SchemaNode; depth?: number }) {
  if (depth > MAX_DEPTH) return null;
  const target = schema.items && !schema.properties ? schema.items : schema;
  const parts = [...(target.allOf ?? []), ...(target.anyOf ?? []), ...(target.oneOf ?? [])].filter((part) => part.properties);
  if (!target.properties && parts.length === 0) return null;
  const properties = { ...target.properties, ...Object.assign({}, ...parts.map((part) => part.properties)) } as Record<string, SchemaNode>;
  const required = new Set([...(target.required ?? []), ...parts.flatMap((part) => part.required ?? [])]);
  return (
    <ul className={styles.fields}>
      {Object.entries(properties).map(([name, property]) => (
        <li key={name}>
          <code className={styles.fieldName}>{name}</code> <span className={styles.type}>{typeLabel(property)}</span>
          {required.has(name) ? <span className={styles.required}> required</span> : null}
          {constraints(property).length > 0 ? <span className={styles.constraints}> · {constraints(property).join(" · ")}</span> : null}
          {property.description ? (
            <div className={styles.description}>
              <Inline text={property.description} />
            </div>
          ) : null}
          <SchemaView schema={property} depth={depth + 1} />
        </li>
      ))}
      {target.additionalProperties === false ? <li className={styles.note}>No other fields are accepted.</li> : null}
    </ul>
  );
}
