import fc from "fast-check";
import { z } from "zod";
import { HTTP_METHODS, type AnyRoute } from "../../src/server/http/route";
import {
  CONTENT_TYPES,
  deepNestingText,
  hostileJson,
  hostileKey,
  lookalike,
  NASTY_DATES,
  NASTY_DECIMALS,
  pathSegment,
  queryValue,
  RAW_BODIES,
  RAW_QUERY_PIECES,
} from "./fuzz-values";

/** One request as it goes on the wire (path and query already encoded, or deliberately not). */
export interface FuzzRequest {
  method: string;
  /** After /api/v1. */
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /**
   * What the answer must be beyond "no 5xx, no stray row": a refusal with this code (naming `field` among its
   * errors when given), or, with `notCode`, anything but that code.
   */
  expected?: { code: string; field?: string } | { notCode: string };
}

export interface FuzzContext {
  /** A valid key, so that most requests get past authentication and reach validation. */
  apiKey: string;
  /** Real ids (the merchant's own), so that some requests reach the handler itself. */
  knownIds: string[];
}

const DEEP_MARKER = "__fuzz_deep_nesting__";

export function toRequest(fuzz: FuzzRequest): Request {
  const url = `http://localhost/api/v1${fuzz.path}${fuzz.query ? `?${fuzz.query}` : ""}`;
  const canHaveBody = fuzz.method !== "GET" && fuzz.method !== "HEAD";
  return new Request(url, {
    method: fuzz.method,
    headers: fuzz.headers,
    body: canHaveBody ? (fuzz.body as BodyInit | undefined) : undefined,
  });
}

/** Junk requests for one route: its method mostly, its path with odd ids, hostile query, headers, body. */
export function fuzzRequest(route: AnyRoute, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...HTTP_METHODS) }),
      path: pathFor(route, ctx),
      query: queryFor(route),
      authorization: authorization(ctx.apiKey),
      forwardedFor: fc.ipV4(),
      extraHeaders: extraHeaders(),
      body: route.streamedBody ? streamedBodyFor(route.streamedBody) : route.body ? bodyFor(route) : fc.option(rawBody(), { freq: 5 }),
    })
    .map(({ method, path, query, authorization, forwardedFor, extraHeaders, body }) => {
      const headers: Record<string, string> = { "x-forwarded-for": forwardedFor, ...extraHeaders };
      if (authorization !== null) headers.authorization = authorization;
      if (body?.contentType !== undefined) headers["content-type"] = body.contentType;
      return { method, path, query, headers, ...(body ? { body: body.data } : {}) };
    });
}

export function pathFor(route: AnyRoute, ctx: FuzzContext): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant(route.path);
  return fc
    .tuple(...names.map(() => pathSegment(ctx.knownIds)))
    .map((segments) => segments.reduce((path, segment, i) => path.replace(`{${names[i]}}`, segment), route.path));
}

type PropertySchema = { type?: string | string[]; format?: string };

/** The route's query parameters and their JSON Schemas, read from its zod schema. */
export function queryParameters(route: AnyRoute): Record<string, PropertySchema> {
  if (!route.query) return {};
  const schema = z.toJSONSchema(route.query, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, PropertySchema> };
  return schema.properties ?? {};
}

/** Values for one parameter: junk of any kind, and junk shaped like what it expects. */
export function queryValueFor(schema: PropertySchema | undefined): fc.Arbitrary<string> {
  const types = [schema?.type].flat();
  if (schema?.format === "date-time" || schema?.format === "date") return fc.oneof(queryValue, fc.constantFrom(...NASTY_DATES));
  if (types.includes("integer") || types.includes("number")) return fc.oneof(queryValue, fc.constantFrom(...NASTY_DECIMALS));
  return queryValue;
}

function queryFor(route: AnyRoute): fc.Arbitrary<string> {
  const parameters = queryParameters(route);
  const keys = Object.keys(parameters);
  const known = keys.length > 0 ? fc.constantFrom(...keys).chain((key) => queryValueFor(parameters[key]).map((value) => [key, value] as const)) : null;
  const unknown = fc.tuple(hostileKey, queryValue);
  const pair = known ? fc.oneof({ weight: 3, arbitrary: known }, unknown) : unknown;
  const pairs = fc.array(pair, { maxLength: 6 }).map((entries) => new URLSearchParams(entries.map(([k, v]) => [k, v])).toString());
  return fc
    .tuple(pairs, fc.option(fc.constantFrom(...RAW_QUERY_PIECES), { freq: 4 }))
    .map(([encoded, raw]) => [encoded, raw].filter(Boolean).join("&"));
}

function authorization(apiKey: string): fc.Arbitrary<string | null> {
  const flipped = apiKey.slice(0, -1) + (apiKey.endsWith("A") ? "B" : "A");
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${apiKey}`) },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNzd29yZA==",
        `Bearer ${flipped}`,
        `Bearer ${apiKey}${apiKey}`,
        `bearer ${apiKey}`,
        `Bearer  ${apiKey}  `,
        `Token ${apiKey}`,
        `Bearer ${apiKey}, Bearer x`,
        `Bearer sk_live_${"A".repeat(43)}`,
        "Bearer " + "A".repeat(10_000),
      ),
    },
  );
}

function extraHeaders(): fc.Arbitrary<Record<string, string>> {
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });
  return fc.record(
    {
      "idempotency-key": fc.oneof(printable, fc.constant("k".repeat(256))),
      "content-length": fc.constantFrom("0", "1", "10", "999999999", "-1", "abc"),
      accept: fc.constantFrom("text/html", "application/xml", "*/*"),
    },
    { requiredKeys: [] },
  );
}

interface FuzzBody {
  data: string | Uint8Array;
  contentType: string | undefined;
}

const jsonType = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
);

function bodyFor(route: AnyRoute): fc.Arbitrary<FuzzBody | null> {
  const example = route.bodyExample ?? {};
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(mutated(example), jsonType, deepNestingText).map(([value, contentType, deep]) => ({ data: serialise(value, deep), contentType })) },
    { weight: 1, arbitrary: fc.tuple(hostileJson, jsonType).map(([value, contentType]) => ({ data: JSON.stringify(value) ?? "", contentType })) },
    { weight: 2, arbitrary: rawBody() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

/** A streamed CSV body: its example with a line of random cells added, random text, or junk bytes. */
function streamedBodyFor(declared: NonNullable<AnyRoute["streamedBody"]>): fc.Arbitrary<FuzzBody | null> {
  const csvType = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(declared.mediaType) },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const cell = fc.oneof(fc.string(), fc.constantFrom(...NASTY_DECIMALS, ...NASTY_DATES, "\"", "\u0000"));
  const line = fc.array(cell, { maxLength: 8 }).map((cells) => cells.join(","));
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.array(line, { minLength: 1, maxLength: 5 }), csvType).map(([lines, contentType]) => ({ data: `${declared.example}${lines.join("\n")}\n`, contentType })) },
    { weight: 2, arbitrary: fc.tuple(fc.string({ unit: "binary", maxLength: 400 }), csvType).map(([data, contentType]) => ({ data, contentType })) },
    { weight: 1, arbitrary: fc.record({ data: fc.constantFrom(...RAW_BODIES), contentType: csvType }) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

function rawBody(): fc.Arbitrary<FuzzBody> {
  return fc.record({ data: fc.constantFrom(...RAW_BODIES), contentType: jsonType });
}

/** The valid example with one to three fields replaced, removed or added, at any depth. */
export function mutated(example: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(example);
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("set" as const), path: fc.constantFrom(...paths), value: hostileJson }),
    fc
      .constantFrom(...paths)
      .chain((path) => lookalike(walk(example, path)).map((value) => ({ kind: "set" as const, path, value }))),
    fc.record({ kind: fc.constant("deep" as const), path: fc.constantFrom(...paths) }),
    fc.record({ kind: fc.constant("delete" as const), path: fc.constantFrom(...paths) }),
    fc.record({ kind: fc.constant("add" as const), path: fc.constantFrom(...paths), key: hostileKey, value: hostileJson }),
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    let value = structuredClone(example);
    for (const m of mutations) {
      if (m.kind === "set") value = setAt(value, m.path, m.value);
      else if (m.kind === "deep") value = setAt(value, m.path, DEEP_MARKER);
      else if (m.kind === "delete") value = deleteAt(value, m.path);
      else value = setAt(value, [...m.path, m.key], m.value);
    }
    return value;
  });
}

function serialise(value: unknown, deep: string): string {
  return (JSON.stringify(value) ?? "").replace(`"${DEEP_MARKER}"`, deep);
}

type Path = (string | number)[];

/** Every path into a JSON value, the root included. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const children = Array.isArray(value)
    ? value.flatMap((item, i) => pathsOf(item, [...prefix, i]))
    : value && typeof value === "object"
      ? Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))
      : [];
  return [prefix, ...children];
}

function setAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const parent = walk(root, path.slice(0, -1));
  if (parent && typeof parent === "object") {
    Object.defineProperty(parent, path.at(-1)!, { value: replacement, enumerable: true, writable: true, configurable: true });
  }
  return root;
}

function deleteAt(root: unknown, path: Path): unknown {
  if (path.length === 0) return undefined;
  const parent = walk(root, path.slice(0, -1));
  if (Array.isArray(parent)) parent.splice(Number(path.at(-1)), 1);
  else if (parent && typeof parent === "object") delete (parent as Record<string, unknown>)[String(path.at(-1))];
  return root;
}

function walk(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) {
    if (!node || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
